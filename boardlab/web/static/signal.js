/**
 * "Your turn" signals of the game page: the tab title and favicon always, and, when the player
 * turns them on (off by default, kept in localStorage), a short tone and a notification while
 * the page is not in view. Nothing is fetched: the tone is synthesised, the icons are ours.
 */
const KEY = "boardlab:alerts";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";

export class TurnSignal {
  /** `toggle` is the checkbox that turns the tone and the notification on and off. */
  constructor(toggle) {
    this.toggle = toggle;
    this.mine = false;
    this.audio = null;
    toggle.checked = localStorage.getItem(KEY) === "1";
    toggle.addEventListener("change", () => this.choose(toggle.checked));
  }

  choose(on) {
    localStorage.setItem(KEY, on ? "1" : "0");
    if (!on) return;
    // Made during the click, so the browser lets it play later without another gesture.
    this.audio ??= new AudioContext();
    if ("Notification" in window && Notification.permission === "default") Notification.requestPermission();
  }

  /** Show whether it is the player's turn in `game`; alert when it has just become so
   * (not on the page's first view: the player opened it and can see). */
  update(game, mine, first) {
    document.title = mine ? `● Your turn — ${game} — Boardlab` : `${game} — Boardlab`;
    const icon = document.getElementById("favicon");
    if (icon) icon.href = mine ? TURN_ICON : ICON;
    document.body.toggleAttribute("data-your-turn", mine);
    if (mine && !this.mine && !first && this.toggle.checked) this.alert(game);
    this.mine = mine;
  }

  alert(game) {
    this.tone();
    const away = document.hidden || !document.hasFocus();
    if (away && "Notification" in window && Notification.permission === "granted") {
      new Notification("Your turn", { body: `${game} on Boardlab`, tag: "boardlab-turn", icon: TURN_ICON });
    }
  }

  /** Two short notes, rising. */
  tone() {
    this.audio ??= new AudioContext();
    const start = this.audio.currentTime;
    for (const [offset, pitch] of [[0, 660], [0.14, 880]]) {
      const note = this.audio.createOscillator();
      const gain = this.audio.createGain();
      note.frequency.value = pitch;
      gain.gain.setValueAtTime(0.12, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, start + offset + 0.12);
      note.connect(gain).connect(this.audio.destination);
      note.start(start + offset);
      note.stop(start + offset + 0.13);
    }
  }
}
