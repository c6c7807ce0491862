// The page around the three views: the header (tabs, the connection pill, the watch-only
// badge), which controls are enabled, the toast, and the address bar that mirrors the view.
import { formatHash, parseHash } from "./address.mjs";
import { connectionLabel } from "./connection.mjs";
import { $ } from "./dom.view.mjs";
import { accessNotice } from "./access.mjs";
import { errorLogLine } from "./notice.mjs";

const TOAST_MS = 5000;

export class Shell {
  constructor(store) {
    this.store = store;
    this.toastTimer = undefined;
    this.writtenHash = undefined;
    this.listen();
    store.on("connection", (state) => this.showConnection(state));
    store.on("control", (canControl) => {
      this.showControl(canControl);
      // The hello named this page: the pill says its number.
      if (this.connectionState) this.showConnection(this.connectionState);
    });
    store.on("tab", (tab) => this.showTab(tab));
    store.on("address", (address) => this.writeAddress(address));
    // A server error reaches a person as a plain sentence; what the server said goes to the
    // console. The store toasts an error right after emitting it, so the toast that follows an
    // `error` event in the same task is that error's, and is shown in words instead.
    // The server's own text goes to the console; the store toasts a plain sentence (notice.mjs).
    store.on("error", (error) => console.info(errorLogLine(error)));
    store.on("toast", (text) => this.toast(text));
    // Controls drawn later (the sliders of another preset, the tune axes) follow the same rule.
    new MutationObserver(() => {
      if (!this.store.canControl) this.disableControls(false);
    }).observe(document.querySelector("main"), { childList: true, subtree: true });
  }

  listen() {
    for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => this.store.showTab(tab.dataset.tab));
    $("connection").addEventListener("click", () => this.store.connection.retryNow());
    window.addEventListener("hashchange", () => this.onHashChange());
  }

  showConnection(state) {
    this.connectionState = state;
    const el = $("connection");
    el.dataset.state = state.state;
    document.body.dataset.connection = state.state;
    const { text, title } = connectionLabel(state, this.store.page);
    if (text !== null) el.textContent = text;
    el.title = title;
  }

  /**
   * Enables the panels' controls, the transport and the pad only for a page that may control;
   * what changes nothing on the server stays enabled for every page: the tune queue, the
   * comparison menu, and the timeline's own tools (fit, export, link).
   */
  showControl(canControl) {
    document.body.dataset.canControl = String(canControl);
    $("access").hidden = canControl;
    // Before the server's hello nothing was refused yet: no banner.
    const notice = accessNotice({ hasToken: this.store.hasToken && this.store.greeted, canControl });
    $("access-banner").hidden = notice === null;
    $("access-banner").textContent = notice ?? "";
    this.disableControls(canControl);
  }

  disableControls(canControl) {
    for (const el of document.querySelectorAll(".panel input, .panel select, .panel button, #transport-box input, #transport-box select, #transport-box button, #pad")) {
      // Asking for a comparison (a timeline's or a sheet's) and copying the view's setting change
      // nothing, so a watch-only page may; the sheets' own view enables its second menu.
      if (el.closest("#tune-queue") || el.closest("#sheets") || el.id === "compare" || el.id === "setting-copy") continue;
      if (el.disabled !== !canControl) el.disabled = !canControl;
    }
  }

  showTab(tab) {
    for (const el of document.querySelectorAll(".tab")) el.setAttribute("aria-pressed", String(el.dataset.tab === tab));
    for (const el of document.querySelectorAll(".panel")) el.hidden = el.dataset.panel !== tab;
    document.body.dataset.tab = tab;
  }

  toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, TOAST_MS);
  }

  // MARK: The address bar

  /** Shows the view's address without adding to the history (the page keeps one entry). */
  writeAddress(address) {
    const hash = formatHash(address);
    if (hash === (location.hash || "")) return;
    this.writtenHash = hash;
    history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
  }

  /** The person edited the address (or opened a link to this page): open what it names. */
  onHashChange() {
    if (location.hash === this.writtenHash) return;
    this.store.openAddress(parseHash(location.hash));
  }
}
