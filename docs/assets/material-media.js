// Material's media-query listeners, each ended with the page it was added for.
//
// A classic script, run before Material's bundle (overrides/main.html). The
// bundle of Material 9.8.2 watches a media query (`watchMedia`) with
// `mql.addListener(...)` and never removes the listener, not even when what
// watched it is torn down. Every page that instant navigation shows mounts
// its two sidebars on `screen$` and `tablet$` (two such watches), so every
// page left behind two listeners, each holding, through the subscriber it
// calls, that page's sidebar and article: about 1,900 DOM nodes a page, kept
// for as long as the tab lives. Material has reached its end of life and
// will not change it.
//
// So: a listener added before the first page is shown (the bundle's own
// watches, which last as long as the tab: the palette's, the scroll lock's)
// is left alone; one added after (the sidebars', mounted for each page as
// Material's `document$` emits it) is removed at the next emission, once
// Material has torn that page down and mounted the next. In 9.8.2 nothing
// else adds one: removing a listener whose subscriber is gone changes
// nothing the reader sees, since that subscriber ignores what it is sent.
(function () {
  const proto = typeof MediaQueryList === "function" ? MediaQueryList.prototype : null;
  if (!proto || typeof proto.addListener !== "function") return;
  const add = proto.addListener;
  const remove = proto.removeListener;
  /** @type {{list: MediaQueryList, listener: ((this: MediaQueryList, event: MediaQueryListEvent) => unknown) | null, page: number}[]} */
  let added = []; // the listeners added since the first page began, with the page each was added for
  let page = 0; // 0 until the first page is shown: what is added until then lasts

  /** @this {MediaQueryList} @param {((this: MediaQueryList, event: MediaQueryListEvent) => unknown) | null} listener */
  proto.addListener = function (listener) {
    if (page && listener) added.push({ list: this, listener, page });
    return add.call(this, listener);
  };
  /** @this {MediaQueryList} @param {((this: MediaQueryList, event: MediaQueryListEvent) => unknown) | null} listener */
  proto.removeListener = function (listener) {
    added = added.filter((a) => a.list !== this || a.listener !== listener);
    return remove.call(this, listener);
  };

  // This listener comes before Material's own (the bundle runs after this script), so `page` is 1
  // before Material mounts the first page; and it subscribes to `document$` after Material did, so on
  // each emission Material has mounted the new page (its listeners carry the page number) before the
  // listeners of the pages before are removed here.
  document.addEventListener("DOMContentLoaded", () => {
    if (typeof document$ === "undefined") return; // not a page of Material's: nothing to end
    page = 1;
    document$.subscribe(() => {
      const now = page;
      added = added.filter((a) => {
        if (a.page >= now) return true;
        remove.call(a.list, a.listener);
        return false;
      });
      page = now + 1;
    });
  }, { once: true });
})();
