// The replay's controls: one step shown at a time, moved by the slider, the buttons and the
// arrow keys (Home and End jump to the ends). Without this script every step is shown.
(function () {
  "use strict";
  const replay = document.getElementById("replay");
  if (!replay) return;
  const steps = Array.from(replay.querySelectorAll("section.step"));
  const log = Array.from(replay.querySelectorAll("#log li"));
  const slider = document.getElementById("step");
  const label = document.getElementById("step-label");
  const last = steps.length - 1;
  function show(i) {
    const step = Math.max(0, Math.min(last, i));
    steps.forEach((s, j) => { s.hidden = j !== step; });
    log.forEach((li, j) => {
      if (j === step) { li.setAttribute("aria-current", "step"); li.scrollIntoView({ block: "nearest" }); }
      else li.removeAttribute("aria-current");
    });
    slider.value = String(step);
    label.textContent = "step " + step + " of " + last;
    replay.dataset.current = String(step);
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.getElementById("prev").addEventListener("click", () => show(Number(slider.value) - 1));
  document.getElementById("next").addEventListener("click", () => show(Number(slider.value) + 1));
  log.forEach((li, j) => li.addEventListener("click", () => show(j)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === "text") return;
    const now = Number(slider.value);
    const next = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    show(next);
  });
  show(0);
})();
