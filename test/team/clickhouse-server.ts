import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { clickHouseTarget, request } from '../../server/team/clickhouse';

/** Debian's clickhouse-server (18.16), wherever PATH or the usual places have it; null when not installed. */
export function clickHouseBinary(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) if (dir && existsSync(join(dir, 'clickhouse-server'))) return join(dir, 'clickhouse-server');
  return null;
}

/**
 * Suites that need ClickHouse run when the binary is there, fail when CI is set (.ci/run installs
 * it), and are otherwise skipped with a notice that shows in the test output.
 */
export function requireClickHouseOrSkip(suite: string): string | null {
  const bin = clickHouseBinary();
  if (bin) return bin;
  if (process.env.CI) throw new Error(`${suite} needs clickhouse-server (apt-get install clickhouse-server), and CI is set`);
  console.warn(`NOTICE: skipping "${suite}": clickhouse-server is not installed (apt-get install clickhouse-server).`);
  return null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** A second user, `pusher`, has this password: a push with credentials in its URL must log in with them. */
export const PUSHER_PASSWORD = 's3cret-word';

export interface RunningClickHouse {
  url: string;
  /** Runs a query over HTTP and returns the body; throws on a non-2xx answer. */
  query(sql: string): Promise<string>;
  /** The server's data directory (temporary; removed by stop). */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts a private ClickHouse as the current user: loopback only, free ports, a temporary data
 * directory and a minimal config (written here), no system service. Resolves once /ping answers.
 */
export async function startClickHouse(bin: string): Promise<RunningClickHouse> {
  const dir = mkdtempSync(join(tmpdir(), 'tcf-clickhouse-'));
  const data = join(dir, 'data');
  mkdirSync(data);
  const [http, tcp] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, 'config.xml'),
    `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/server.err.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <path>${data}/</path>
  <tmp_path>${data}/tmp/</tmp_path>
  <user_files_path>${data}/user_files/</user_files_path>
  <format_schema_path>${data}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <timezone>UTC</timezone>
</yandex>
`,
  );
  writeFileSync(
    join(dir, 'users.xml'),
    `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>1000000000</max_memory_usage></default></profiles>
  <users>
    <default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default>
    <pusher><password>${PUSHER_PASSWORD}</password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></pusher>
  </users>
  <quotas><default></default></quotas>
</yandex>
`,
  );
  const child: ChildProcess = spawn(bin, [`--config-file=${join(dir, 'config.xml')}`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${http}`;
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(killed);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`clickhouse-server exited before answering: ${stderr}`);
    }
    try {
      const r = await fetch(`${url}/ping`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`clickhouse-server did not answer /ping within 90 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // The push's own HTTP helper: a connection per query (ClickHouse closes idle keep-alive ones after 3 s).
  const target = clickHouseTarget(url);
  const query = (sql: string) => request(target, sql);
  return { url, query, dataDir: data, stop };
}
