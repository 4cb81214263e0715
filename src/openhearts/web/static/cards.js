// Playing cards drawn as SVG: corner indices, suit pips laid out like a real deck,
// framed court cards and a patterned back.  Everything is built with DOM calls from
// constants, so no markup string ever meets outside data.

const SVG_NS = "http://www.w3.org/2000/svg";

export const SUITS = "CDSH";
export const RANKS = "23456789TJQKA";
const SUIT_WORDS = { C: "clubs", D: "diamonds", S: "spades", H: "hearts" };
const SUIT_SINGULAR = { C: "club", D: "diamond", S: "spade", H: "heart" };
const SUIT_SYMBOLS = { C: "♣", D: "♦", S: "♠", H: "♥" };
const RANK_WORDS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const RANK_LABELS = { T: "10" };

// Suit shapes in a 100 x 100 box; paths rather than font glyphs so that every
// system draws the same card.
const SUIT_PATHS = {
  H: "M50 92C38 78 4 56 4 30 4 14 16 4 29 4 39 4 46 10 50 19 54 10 61 4 71 4 "
    + "84 4 96 14 96 30 96 56 62 78 50 92Z",
  D: "M50 2C60 20 74 38 88 50 74 62 60 80 50 98 40 80 26 62 12 50 26 38 40 20 50 2Z",
  S: "M50 3C58 20 96 38 96 62 96 77 85 86 72 86 63 86 56 81 53 75 54 86 60 93 70 98H30"
    + "C40 93 46 86 47 75 44 81 37 86 28 86 15 86 4 77 4 62 4 38 42 20 50 3Z",
  C: "M50 4A21 21 0 0 1 67 38 21 21 0 1 1 58 76C59 86 63 92 71 98H29C37 92 41 86 42 76"
    + "A21 21 0 1 1 33 38 21 21 0 0 1 50 4Z",
};

const RED = "#c8102e";
const BLACK = "#1a1a1a";

/** Rank and suit letters of a card code such as "QS" or "TH". */
export function parts(code) {
  return { rank: code[0], suit: code[1] };
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

/** "queen of spades" */
export function cardName(code) {
  const { rank, suit } = parts(code);
  return `${RANK_WORDS[rank]} of ${SUIT_WORDS[suit]}`;
}

/** "Q♠" */
export function cardPretty(code) {
  const { rank, suit } = parts(code);
  return `${RANK_LABELS[rank] ?? rank}${SUIT_SYMBOLS[suit]}`;
}

const SYMBOL_SUITS = { "♣": "C", "♦": "D", "♠": "S", "♥": "H" };

/**
 * A sentence of the server's (a refusal: "You cannot play the 4♦: ... you hold ♠.")
 * with its cards and suits in words, as the page says everything else: screen readers
 * read the symbols as "black diamond suit", or not at all.
 */
export function spokenCards(text, names = []) {
  // The players' names are read as written ("Zoë ♥" was said "Zoë hearts"): only the
  // text between them is turned into words.
  const kept = [...new Set(names)].filter((name) => /[♣♦♠♥]/.test(name))
    .sort((a, b) => b.length - a.length);
  if (kept.length) {
    const pattern = new RegExp(kept.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("|"), "g");
    let spoken = "";
    let from = 0;
    for (const match of text.matchAll(pattern)) {
      spoken += spokenCards(text.slice(from, match.index)) + match[0];
      from = match.index + match[0].length;
    }
    return spoken + spokenCards(text.slice(from));
  }
  return text
    .replace(/(10|[2-9JQKA])([♣♦♠♥])/g, (_, rank, symbol) => {
      const code = (rank === "10" ? "T" : rank) + SYMBOL_SUITS[symbol];
      return cardName(code);
    })
    .replace(/[♣♦♠♥]/g, (symbol) => SUIT_WORDS[SYMBOL_SUITS[symbol]]);
}

export function suitWord(letter) {
  return SUIT_WORDS[letter];
}

export function suitSingular(letter) {
  return SUIT_SINGULAR[letter];
}

/** Sort key: suits in the order clubs, diamonds, spades, hearts, low to high. */
export function cardIndex(code) {
  return SUITS.indexOf(code[1]) * 13 + RANKS.indexOf(code[0]);
}

export function isCardCode(value) {
  return typeof value === "string" && /^[2-9TJQKA][CDSH]$/.test(value);
}

const WORD_RANKS = {
  two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8",
  nine: "9", ten: "T", jack: "J", queen: "Q", king: "K", ace: "A",
};
const WORD_SUITS = {
  club: "C", clubs: "C", diamond: "D", diamonds: "D", spade: "S", spades: "S",
  heart: "H", hearts: "H", "♣": "C", "♦": "D", "♠": "S", "♥": "H",
};

/** Read what a player typed ("qs", "10h", "Q of spades", "q♠"); null if it is no card. */
export function parseCard(text) {
  let t = String(text).trim().toLowerCase();
  if (!t) return null;
  const words = t.split(/[\s-]+/).filter((w) => w && w !== "of");
  if (words.length === 2 && (words[0] in WORD_RANKS || /^(10|[2-9tjqka])$/.test(words[0]))) {
    const rank = WORD_RANKS[words[0]] ?? (words[0] === "10" ? "T" : words[0].toUpperCase());
    const letter = /^[cdsh]$/.test(words[1]) ? words[1].toUpperCase() : null;
    const suit = WORD_SUITS[words[1]] ?? letter;
    return suit ? rank + suit : null;
  }
  t = t.replace(/\s+/g, "").replace(/^10/, "t");
  // The suit before the rank ("♠q") is read too, as in the other faces.
  let rank;
  let suitText;
  let m = /^([2-9tjqka])([cdsh♣♦♠♥])$/.exec(t);
  if (m) [, rank, suitText] = m;
  else {
    m = /^([cdsh♣♦♠♥])(10|[2-9tjqka])$/.exec(t);
    if (!m) return null;
    [, suitText, rank] = m;
    if (rank === "10") rank = "t";
  }
  const suit = WORD_SUITS[suitText] ?? suitText.toUpperCase();
  return rank.toUpperCase() + suit;
}

/** Several cards typed at once ("4c 6c 8c", "2C, 9C, 5D", "QS, AH, and TH", "ten of
 * hearts and two of clubs"): their codes in the order typed, or null when any part is
 * not a card. "and" separates cards, as the other faces read it. */
export function parseCards(text) {
  const one = parseCard(text);
  if (one) return [one];
  const trimmed = String(text).trim();
  if (!trimmed) return null;
  const byPhrase = trimmed.split(/\s*[,;]\s*(?:and\s+)?|\s+and\s+/i);
  const byWord = trimmed.split(/[\s,;]+/).filter((word) => word.toLowerCase() !== "and");
  for (const parts of [byPhrase, byWord]) {
    const codes = parts.filter(Boolean).map(parseCard);
    if (codes.length > 1 && codes.every(Boolean)) return codes;
  }
  return null;
}

function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.appendChild(child);
  return node;
}

let spriteReady = false;

/** Put the shared suit symbols and the back pattern into the document once. */
export function installSprite(root = document.body) {
  if (spriteReady) return;
  spriteReady = true;
  const defs = el("defs");
  for (const suit of SUITS) {
    defs.appendChild(
      el("symbol", { id: `pip-${suit}`, viewBox: "0 0 100 100" }, [
        el("path", { d: SUIT_PATHS[suit], fill: "currentColor" }),
      ]),
    );
  }
  const lattice = el("pattern", {
    id: "back-lattice", width: 16, height: 16, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)",
  }, [
    el("rect", { width: 16, height: 16, fill: "#1c4f8f" }),
    el("path", { d: "M0 8H16M8 0V16", stroke: "#3d78c2", "stroke-width": 3 }),
    el("circle", { cx: 8, cy: 8, r: 2.6, fill: "#e9eef7" }),
  ]);
  defs.appendChild(lattice);
  const face = el("linearGradient", { id: "court-bg", x1: 0, y1: 0, x2: 1, y2: 1 }, [
    el("stop", { offset: "0", "stop-color": "#fff8e6" }),
    el("stop", { offset: "1", "stop-color": "#f3e2b8" }),
  ]);
  defs.appendChild(face);
  const sprite = el("svg", { width: 0, height: 0, "aria-hidden": "true", focusable: "false" }, [
    defs,
  ]);
  sprite.style.position = "absolute";
  root.prepend(sprite);
}

function pip(suit, cx, cy, size, flip = false) {
  const node = el("use", {
    href: `#pip-${suit}`, x: cx - size / 2, y: cy - size / 2, width: size, height: size,
  });
  if (flip) node.setAttribute("transform", `rotate(180 ${cx} ${cy})`);
  return node;
}

const W = 240;
const H = 336;
const CX = W / 2;
const CY = H / 2;

// Pip positions for the number cards, as [column, row] with columns -1..1 and rows
// from 0 (top) to 1 (bottom); pips below the middle are drawn upside down.
const LAYOUTS = {
  2: [[0, 0], [0, 1]],
  3: [[0, 0], [0, 0.5], [0, 1]],
  4: [[-1, 0], [1, 0], [-1, 1], [1, 1]],
  5: [[-1, 0], [1, 0], [0, 0.5], [-1, 1], [1, 1]],
  6: [[-1, 0], [1, 0], [-1, 0.5], [1, 0.5], [-1, 1], [1, 1]],
  7: [[-1, 0], [1, 0], [0, 0.25], [-1, 0.5], [1, 0.5], [-1, 1], [1, 1]],
  8: [[-1, 0], [1, 0], [0, 0.25], [-1, 0.5], [1, 0.5], [0, 0.75], [-1, 1], [1, 1]],
  9: [[-1, 0], [1, 0], [-1, 1 / 3], [1, 1 / 3], [0, 0.5], [-1, 2 / 3], [1, 2 / 3], [-1, 1],
    [1, 1]],
  T: [[-1, 0], [1, 0], [0, 1 / 6], [-1, 1 / 3], [1, 1 / 3], [-1, 2 / 3], [1, 2 / 3], [0, 5 / 6],
    [-1, 1], [1, 1]],
};

function corner(rank, suit) {
  const label = RANK_LABELS[rank] ?? rank;
  const text = el("text", {
    x: 25, y: 46, "text-anchor": "middle", "font-size": 40, "font-weight": 700,
    "font-family": "'DejaVu Serif', Georgia, 'Times New Roman', serif",
    fill: "currentColor",
  });
  if (label.length > 1) {
    text.setAttribute("textLength", 36);
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  text.textContent = label;
  const group = el("g", {}, [text, pip(suit, 25, 70, 27)]);
  return group;
}

// Simple emblems for the court cards, drawn in a 100 x 60 box.
const EMBLEMS = {
  K: "M8 58L2 14 26 34 50 4 74 34 98 14 92 58Z",
  Q: "M10 58L6 24 28 38 50 14 72 38 94 24 90 58Z M44 6A6 6 0 1 0 56 6 6 6 0 1 0 44 6Z",
  J: "M6 58C10 34 26 18 50 14 64 12 80 4 94 2 88 14 84 30 94 58Z",
};

function courtHalf(rank, suit, color) {
  const group = el("g");
  group.appendChild(
    el("path", {
      d: EMBLEMS[rank], fill: color, opacity: 0.9,
      transform: `translate(${CX - 34} 58) scale(0.68)`,
    }),
  );
  const letter = el("text", {
    x: CX, y: 152, "text-anchor": "middle", "font-size": 74, "font-weight": 700,
    "font-family": "'DejaVu Serif', Georgia, 'Times New Roman', serif", fill: color,
  });
  letter.textContent = rank;
  group.appendChild(letter);
  group.appendChild(pip(suit, 72, 78, 26));
  return group;
}

/**
 * A card face as an SVG element (decorative: the button around it carries the label).
 * `code` is a two-letter card such as "QS".
 */
export function cardSvg(code) {
  const { rank, suit } = parts(code);
  const color = isRed(code) ? RED : BLACK;
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "card-svg", "aria-hidden": "true", focusable: "false",
  });
  svg.style.color = color;
  svg.appendChild(
    el("rect", {
      x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 16, fill: "#fffefa",
      stroke: "#b9b4a8", "stroke-width": 2,
    }),
  );
  svg.appendChild(corner(rank, suit));
  const bottom = corner(rank, suit);
  bottom.setAttribute("transform", `rotate(180 ${CX} ${CY})`);
  svg.appendChild(bottom);

  if (rank === "A") {
    const size = suit === "S" ? 124 : 96;
    svg.appendChild(pip(suit, CX, CY, size));
    if (suit === "S") {
      svg.appendChild(
        el("circle", { cx: CX, cy: CY - 4, r: 9, fill: "#fffefa" }),
      );
    }
  } else if (rank in LAYOUTS) {
    const left = 82;
    const right = W - 82;
    const top = 68;
    const bottomY = H - 68;
    const size = rank === "T" || rank === "9" ? 44 : 48;
    for (const [col, row] of LAYOUTS[rank]) {
      const x = col === 0 ? CX : col < 0 ? left : right;
      const y = top + row * (bottomY - top);
      svg.appendChild(pip(suit, x, y, size, row > 0.5));
    }
  } else {
    // Court card: a framed, mirrored design as on a real deck.
    svg.appendChild(
      el("rect", {
        x: 50, y: 44, width: W - 100, height: H - 88, rx: 6, fill: "url(#court-bg)",
        stroke: color, "stroke-width": 3,
      }),
    );
    svg.appendChild(
      el("line", {
        x1: 54, y1: CY + 30, x2: W - 54, y2: CY - 30, stroke: color, "stroke-width": 1.5,
        opacity: 0.5,
      }),
    );
    svg.appendChild(courtHalf(rank, suit, color));
    const lower = courtHalf(rank, suit, color);
    lower.setAttribute("transform", `rotate(180 ${CX} ${CY})`);
    svg.appendChild(lower);
  }
  return svg;
}

/** The back of a card. */
export function cardBackSvg() {
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "card-svg card-back", "aria-hidden": "true",
    focusable: "false",
  });
  svg.appendChild(
    el("rect", {
      x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 16, fill: "#fffefa",
      stroke: "#b9b4a8", "stroke-width": 2,
    }),
  );
  svg.appendChild(
    el("rect", {
      x: 14, y: 14, width: W - 28, height: H - 28, rx: 9, fill: "url(#back-lattice)",
      stroke: "#163f73", "stroke-width": 3,
    }),
  );
  return svg;
}
