// Following another page (protocol version 3): every page is its own view, and a page shows
// another's only when its person chose to follow it. Pure: what the header offers and says.

/** The pages this page may follow: those with control, but itself, as menu choices. */
export function followChoices(pages, myPage) {
  return (pages?.pages ?? [])
    .filter((p) => p.page !== myPage)
    .map((p) => ({ value: String(p.page), text: p.recording ? `page ${p.page} · ${shortName(p.recording)}` : `page ${p.page}` }));
}

/** What the header says while following `page` (null: not following). */
export const followingText = (page) => (page == null ? "" : `following page ${page}: you see its view`);

/** A recording id's file name, without its folder and extension. */
export function shortName(id) {
  const file = id.split("/").pop() ?? id;
  return file.replace(/\.pantrace$/, "");
}
