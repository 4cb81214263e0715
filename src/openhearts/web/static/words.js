// Plain words for lists, counts and pass directions.

export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

const DIRECTION_WORDS = {
  left: "to the left", right: "to the right", across: "across", hold: "no pass (hold)",
};

export function directionWords(direction) {
  if (direction in DIRECTION_WORDS) return DIRECTION_WORDS[direction];
  const m = /^(left|right)(\d+)$/.exec(direction || "");
  return m ? `${m[2]} seats to the ${m[1]}` : String(direction || "");
}

const NUMBER_WORDS = [
  "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen",
];

/** "three cards", "one card": the count in words, as openhearts.session.words.counted. */
export function counted(count, word) {
  const number = NUMBER_WORDS[count] ?? String(count);
  return `${number} ${word}${count === 1 ? "" : "s"}`;
}

/** "to the left, to West", as openhearts.sentences.spoken.pass_phrase. */
export function passPhrase(direction, name) {
  let where;
  if (["left", "right", "across"].includes(direction)) {
    where = direction === "across" ? "across" : `to the ${direction}`;
  } else {
    const m = /^(left|right)(\d+)$/.exec(direction || "");
    where = m ? `to the player ${m[2]} seats to your ${m[1]}` : `to the ${direction}`;
  }
  return `${where}, to ${name || "nobody"}`;
}

/** A server's message as a sentence: capital first, full stop last (as
 * openhearts.session.words.as_sentence does for the other faces). */
export function asSentence(text) {
  const t = String(text || "").trim();
  if (!t) return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
