// The replay's controls. The page lists the match's steps and draws one; this script moves
// through them with the slider, the arrows (the links and the keys ← → Home End), the list and
// play (the button or the space bar, at the speed chosen), fetching each step's drawing from
// the server (`{match}/steps/{N}`) and keeping those fetched. Without it, the same links load
// the page at another step (`?step=N`); play and its speed stay hidden.
(function () {
  "use strict";
  const replay = document.getElementById("replay");
  if (!replay) return;
  const view = document.getElementById("view");
  const slider = document.getElementById("step");
  const label = document.getElementById("step-label");
  const said = document.getElementById("said"); // the live region screen readers read out
  const log = Array.from(replay.querySelectorAll("#log li"));
  const last = log.length - 1;
  const drawn = new Map(); // step -> its drawing, as the server sent it
  let shown = Number(replay.dataset.current); // the step the view draws
  // The seat whose eyes the table is drawn for, which every step's address keeps; none for all.
  const eyes = replay.dataset.seat === undefined ? "" : "&seat=" + replay.dataset.seat;
  let wanted = shown; // the step asked for last
  let fetching = false;
  drawn.set(shown, view.innerHTML);
  // The list scrolled (not the page) to the step shown.
  const list = document.getElementById("log");
  list.scrollTop = log[shown].offsetTop - list.offsetTop - list.clientHeight / 3;

  const clamp = (i) => Math.max(0, Math.min(last, i));

  // The controls at `step`, at once, before its drawing arrives.
  function mark(step) {
    slider.value = String(step);
    label.textContent = "step " + step + " of " + last;
    log.forEach((li, j) => {
      if (j === step) { li.setAttribute("aria-current", "step"); li.scrollIntoView({ block: "nearest" }); }
      else li.removeAttribute("aria-current");
    });
    const to = { first: 0, prev: step - 1, next: step + 1, last: last };
    for (const id in to) document.getElementById(id).href = "?step=" + clamp(to[id]) + eyes;
    // "Seen by" links keep the step.
    document.querySelectorAll("#eyes a").forEach((a) => {
      const url = new URL(a.href);
      url.searchParams.set("step", String(step));
      a.href = url.search;
    });
  }

  // Draws the step wanted, fetching its drawing unless kept; one fetch at a time, the latest
  // step wanted drawn last (steps passed over while a fetch ran are never fetched).
  async function draw() {
    if (fetching) return;
    fetching = true;
    try {
      while (shown !== wanted) {
        const step = wanted;
        let html = drawn.get(step);
        if (html === undefined) {
          const query = eyes === "" ? "" : "?" + eyes.slice(1);
          const response = await fetch(replay.dataset.href + "/steps/" + step + query);
          if (!response.ok) throw new Error(response.status + " " + response.statusText);
          html = await response.text();
          drawn.set(step, html);
        }
        if (step === wanted) {
          view.innerHTML = html;
          const line = view.querySelector(".line");
          said.textContent = "Step " + step + ": " + (line ? line.textContent : "");
          shown = step;
          replay.dataset.current = String(step);
          history.replaceState(null, "", "?step=" + step + eyes);
        }
      }
    } catch (error) {
      wanted = shown;
      mark(shown);
      label.textContent = "step " + shown + " of " + last + " (the next could not be loaded: " + error.message + ")";
    } finally {
      fetching = false;
    }
  }

  function show(i) {
    wanted = clamp(i);
    mark(wanted);
    draw();
  }

  // Play: a step every `speed` milliseconds until the last; any other move pauses it.
  const play = document.getElementById("play");
  const speed = document.getElementById("speed");
  let timer = null;
  function pause() {
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    play.textContent = "▶ Play";
    play.setAttribute("aria-pressed", "false");
  }
  function tick() {
    timer = null;
    if (wanted >= last) { pause(); return; }
    show(wanted + 1);
    timer = setTimeout(tick, Number(speed.value));
  }
  function start() {
    if (wanted >= last) show(0);
    play.textContent = "⏸ Pause";
    play.setAttribute("aria-pressed", "true");
    timer = setTimeout(tick, Number(speed.value));
  }
  const toggle = () => (timer === null ? start() : pause());
  play.hidden = false;
  document.getElementById("speed-label").hidden = false;
  play.addEventListener("click", toggle);
  speed.addEventListener("change", () => {
    if (timer !== null) { clearTimeout(timer); timer = setTimeout(tick, Number(speed.value)); }
  });
  const moveTo = (i) => { pause(); show(i); };

  // A plain click steps here; one with a modifier opens the link as the browser would.
  function onClick(element, step) {
    element.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      moveTo(step());
    });
  }
  slider.addEventListener("input", () => moveTo(Number(slider.value)));
  const moves = { first: () => 0, prev: () => wanted - 1, next: () => wanted + 1, last: () => last };
  for (const id in moves) onClick(document.getElementById(id), moves[id]);
  log.forEach((li, j) => onClick(li, () => j));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === "text") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return; // the browser's own (Alt+← is "back")
    if (e.key === " " && !(e.target instanceof HTMLButtonElement || e.target instanceof HTMLSelectElement)) {
      e.preventDefault();
      toggle();
      return;
    }
    const next = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    moveTo(next);
  });
})();
