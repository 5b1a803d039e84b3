export declare const SERVER_BUNDLE_OPTIONS: Readonly<{
  bundle: true;
  platform: 'node';
  format: 'esm';
  target: 'node20';
  logLevel: 'silent';
}>;
export declare const ANALYSE_WORKER_SOURCE: string;
export declare const ANALYSE_WORKER_BUNDLE: string;
export declare function newestMtime(path: string): number;
export declare const INDEX_THREAD_SOURCE: string;
export declare const INDEX_THREAD_BUNDLE: string;
export declare function buildCliBundle(root: string, outdir: string): Promise<void>;
