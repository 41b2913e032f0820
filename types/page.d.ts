// Globals the page scripts use that no library declares.

/** Material for MkDocs: emits each page it shows, instant navigation included. */
declare const document$: { subscribe(next: () => void): unknown };
/** Material for MkDocs: the address instant navigation shows, and is asked to show. */
declare const location$: { next(url: URL): void; subscribe(next: (url: URL) => void): unknown };
