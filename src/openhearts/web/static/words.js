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
