// Short sounds synthesised with WebAudio (no sound files): your turn, a trick won, 勞改, the settlement.
// The mute switch is remembered in localStorage. Every cue that sounds is announced as a window event
// "tuolaji:sound" (detail: the cue's name), so the page can show it and tests can hear it.

const STORAGE_KEY = "tuolaji.mute";

/** @typedef {[number, number, number, OscillatorType?]} Note  frequency (Hz), start (s), length (s), wave */
/** @type {Record<string, Note[]>} */
const CUES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.18]],
  trick: [[523, 0, 0.07], [659, 0.07, 0.07], [784, 0.14, 0.16]],
  laogai: [[233, 0, 0.22, "sawtooth"], [175, 0.24, 0.4, "sawtooth"]],
  settlement: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.35]],
};

/** @type {AudioContext|null} */
let context = null;

/** @returns {boolean} whether sounds are off */
export function muted() {
  return localStorage.getItem(STORAGE_KEY) === "1";
}

/** @param {boolean} on turn sounds off (true) or on, and remember it */
export function setMuted(on) {
  localStorage.setItem(STORAGE_KEY, on ? "1" : "0");
}

/** @returns {AudioContext|null} the page's audio context (made on first use), or null without WebAudio */
function audio() {
  if (!context) {
    const Context = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    context = /** @type {AudioContext} */ (new Context());
  }
  if (context.state === "suspended") context.resume().catch(() => undefined);
  return context;
}

/** Let the browser start audio: call from a user gesture (the first tap or key). */
export function unlock() {
  if (!muted()) audio();
}

/**
 * Play a cue, unless muted.
 * @param {keyof typeof CUES} cue
 * @returns {boolean} whether it sounded
 */
export function play(cue) {
  if (muted()) return false;
  const ac = audio();
  const notes = CUES[cue];
  if (!ac || !notes) return false;
  const start = ac.currentTime + 0.02;
  for (const [frequency, at, length, wave = "sine"] of notes) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = wave;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(wave === "sine" ? 0.18 : 0.08, start + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    osc.connect(gain).connect(ac.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.02);
  }
  window.dispatchEvent(new CustomEvent("tuolaji:sound", { detail: cue }));
  return true;
}
