import type { ErrorBody } from '../../../shared/api-schemas';

/** An API error in the server's one error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function launchToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="tcf-token"]')?.content ?? '';
}

/** Answers web/public/assets/prefetch.js started before this code loaded, by path; each is taken once. */
function takeEarly(method: string, path: string): Promise<Response> | undefined {
  const early = (globalThis as { __tcfEarly?: Record<string, Promise<Response>> }).__tcfEarly;
  const answer = method === 'GET' ? early?.[path] : undefined;
  if (answer) delete early![path];
  return answer;
}

async function request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, as: 'json' | 'text' = 'json'): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-tcf-token'] = launchToken();
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await (takeEarly(method, path) ?? fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  } catch {
    throw new ApiError(0, 'unreachable', 'the dashboard server is not answering; is it still running?');
  }
  if (response.status === 204) return undefined as T;
  if (as === 'text' && response.ok) return (await response.text()) as T;
  const json = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const err = (json as ErrorBody | null)?.error;
    throw new ApiError(response.status, err?.code ?? 'http_error', err?.message ?? `request failed (${response.status})`);
  }
  return json as T;
}

/** The one client every page uses; its types come from shared/api-schemas. */
export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  /** The response body as text, exactly as the server wrote it (the evidence report). */
  text: (path: string) => request<string>('GET', path, undefined, 'text'),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: (path: string) => request<void>('DELETE', path),
};
