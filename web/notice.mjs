// What the page says to a person, in plain words, where protocol text would otherwise show:
// a watch-only page's answer where it is asked to change something, and a server `error` as
// a sentence (its code and message go to the console only). Pure.

/** How to get control, the same words everywhere. */
export const GET_CONTROL = "To control it, open the address pantrace serve printed (the one with ?token=…).";

const CANNOT = {
  seek: "This page only watches: it can't move the playhead (the readout shows the values there).",
  play: "This page only watches: it can't play or pause the replay.",
  step: "This page only watches: it can't step the replay.",
  speed: "This page only watches: it can't change the speed.",
  record: "This page only watches: it can't record, but it shows every gesture another page records.",
  keep: "This page only watches: it can watch a device, but it can't keep or discard its gestures.",
};

/** What a watch-only page says where the person tried `action` (`seek`, `play`, `step`, `speed`, `record`). */
export const watchOnlyText = (action) => `${CANNOT[action] ?? "This page only watches: it can't change that."} ${GET_CONTROL}`;

/** The player action a key asks for (replay.mjs `keyMessage`'s keys), or null. */
export function keyAction(key) {
  switch (key) {
    case " ": return "play";
    case "ArrowLeft":
    case "ArrowRight": return "step";
    case "[":
    case "]": return "speed";
    default: return null;
  }
}

const SENTENCES = {
  forbidden: () => `This page only watches, so the server did not do that. ${GET_CONTROL}`,
  busy: (e) => {
    if (e.in_reply_to === "tune") return "A sweep is already running: wait for it to finish, then run yours.";
    if (e.in_reply_to === "compare") return "The server is busy with other pages' comparisons: this one is asked again in a moment.";
    // The pad: the server says who holds it and for how long, in words ("page 3 holds the record pad (for 4 s); …").
    if (/^page \d+ /.test(e.message ?? "")) return `The pad is taken: ${e.message}.`;
    return "Another page is recording: try again when it has finished.";
  },
  invalid: invalidSentence,
  not_found: () => "That recording is no longer in the library (it was moved or deleted): pick another.",
  rate_limited: (e) => (e.in_reply_to === "pointer"
    ? "The pad sent more pointer events than the server takes (500 a second): some were left out."
    : "Too many requests at once: the server left some out. Wait a moment and try again."),
  failed: () => "The server could not write the recording (is the disk full?): the recording has ended.",
  bad_message: () => "The server did not understand this page: reload it.",
  bad_json: () => "The server did not understand this page: reload it.",
  version: () => "This page is older than the server: reload it.",
};

function invalidSentence(e) {
  switch (e.in_reply_to) {
    case "pointer": return "That gesture is no longer being recorded (it ended, or another page took the pad): press on the pad to record again.";
    case "label":
    case "save":
    case "discard": return "There is no recorded gesture waiting to be labelled, saved or discarded any more.";
    case "compare":
      // A sheet replay (a compare that names a sheet) says what it could not do, in the server's words.
      if (/^(sheet|preset): /.test(e.message ?? "")) return `That sheet replay can't be made: ${e.message.replace(/\.$/, "")}. Nothing changed.`;
      return "The server does not know that preset or one of its parameter values: nothing changed.";
    case "load": return "The server does not know that preset or one of its parameter values: nothing changed.";
    case "tune": return "The sweep's settings can't be used (a range, a step or a parameter): nothing ran.";
    case "seek":
    case "speed":
    case "step": return "That time or speed is out of range: nothing changed.";
    case "record": return "The server could not start a recording with that screen or edge.";
    default: return "The server could not use that value: nothing changed.";
  }
}

/**
 * A server `error` (`{code, message, in_reply_to}`) as one plain sentence for a person; the
 * server's own text is for the console (`errorLogLine`), never the page.
 */
export const errorSentence = (error) => (SENTENCES[error?.code] ?? (() => "The server refused that: nothing changed."))(error ?? {});

/** The line the console keeps for a server error: everything the server said. */
export const errorLogLine = (error) =>
  `pantrace serve answered ${error?.in_reply_to ?? "a message"} with ${error?.code}: ${error?.message ?? ""}`;
