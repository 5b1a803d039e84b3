import { EventEmitter } from 'node:events';
import type { LiveUpdate } from '../../shared/live-update';

/**
 * Every event the folder watcher emits, with its arguments: a listener for an event not declared
 * here, or with other arguments, does not compile.
 */
export interface LiveEvents {
  /** Changed files were written: counts, codes and finding ids only (/api/index-runs/events forwards it as `live`). */
  update: [update: LiveUpdate];
  /** A folder's watch was made again from scratch (a folder swapped for a link and back). */
  rearmed: [folderId: number];
  /** A reconciliation of one folder found this many differences with the index. */
  reconciled: [folderId: number, differences: number];
  /** Files whose last line is still being written: looked at again shortly. */
  'still-writing': [folderId: number, files: number];
  /** A folder's watch failed (by label and error code): its changes wait for the reconciliation or a full index. */
  'watch-error': [label: string, code: string];
}

type EventMap<E> = { [K in keyof E]: unknown[] };

/** An EventEmitter that emits and hears only the events of its map `E`, each with its declared arguments. */
export class TypedEmitter<E extends EventMap<E>> {
  private readonly events = new EventEmitter();

  on<K extends keyof E & string>(event: K, listener: (...args: E[K]) => void): this {
    this.events.on(event, listener as (...args: unknown[]) => void);
    return this;
  }

  once<K extends keyof E & string>(event: K, listener: (...args: E[K]) => void): this {
    this.events.once(event, listener as (...args: unknown[]) => void);
    return this;
  }

  off<K extends keyof E & string>(event: K, listener: (...args: E[K]) => void): this {
    this.events.off(event, listener as (...args: unknown[]) => void);
    return this;
  }

  protected emit<K extends keyof E & string>(event: K, ...args: E[K]): boolean {
    return this.events.emit(event, ...args);
  }
}
