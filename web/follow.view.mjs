// The header's "follow" control: choose a page with control to see its view, and the
// "following page N" state with its one-click way back to this page's own view.
import { $, h } from "./dom.view.mjs";
import { followChoices, followingText } from "./follow.mjs";
import * as P from "./protocol.mjs";

export class FollowView {
  constructor(store) {
    this.store = store;
    this.menu = $("follow-page");
    this.state = $("following");
    this.menu.addEventListener("change", () => {
      const page = Number(this.menu.value);
      if (page) this.store.send(P.follow(page));
    });
    $("follow-stop").addEventListener("click", () => this.store.send(P.follow(null)));
    store.on("pages", () => this.show());
    store.on("following", () => this.show());
  }

  show() {
    const choices = followChoices(this.store.pages, this.store.page);
    const following = this.store.following;
    this.menu.replaceChildren(
      h("option", { value: "", text: choices.length ? "follow a page…" : "no other page to follow" }),
      ...choices.map((c) => h("option", { value: c.value, text: c.text })),
    );
    this.menu.value = following == null ? "" : String(following);
    // Nothing to follow: nothing shown (the header stays one row on a phone).
    $("follow-box").hidden = following != null || choices.length === 0;
    this.state.hidden = following == null;
    $("following-text").textContent = followingText(following);
    document.body.dataset.following = following == null ? "" : String(following);
  }
}
