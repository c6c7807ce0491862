// What a page that may or may not control says about it (pure: tested with node --test).

/**
 * The notice for a page: `null` when it controls; a plain banner when its address carries a
 * token the server refused (a restarted server, an old link), since the page then only
 * watches and must say so, not hide it in a tooltip; `null` for a page opened without a token,
 * whose "watch only" badge says enough.
 */
export function accessNotice({ hasToken, canControl }) {
  if (canControl || !hasToken) return null;
  return "The server refused this page's token (it may have restarted): this page only watches. "
    + "To control it, open the address pantrace serve printed.";
}
