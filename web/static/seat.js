// A person's seat (web/src/pages/seat.rs). The seat is redrawn from its event stream: each
// `seat` event is the panel's new HTML, which htmx then binds (its forms post the clicks). The
// stream is closed when the page goes away (a closed tab, a link followed), so that the web
// server lets the seat go and the game server's reconnect grace runs, and opened again if the
// page comes back; an `end` event (the match is over) closes it for good. A refused stream is
// asked for again after 5 s.
//
// The clock: each `data-left-ms` figure counts down from when it was drawn; a bank
// (`data-after-ms`, the move's time) starts once the move's time is spent. The server's clock
// is the one that counts: this only shows it.
(function () {
  "use strict";
  var panel = document.getElementById("seat");
  var source = null;
  var over = false;

  function open() {
    if (source || over) {
      return;
    }
    source = new EventSource(panel.dataset.stream);
    source.addEventListener("seat", function (event) {
      panel.innerHTML = event.data;
      htmx.process(panel);
    });
    source.addEventListener("end", function () {
      over = true;
      close();
    });
    // The browser tries again by itself after a dropped connection, but not after a refusal
    // (the pages' limits: 429, 503): then this page does, a little later.
    source.addEventListener("error", function () {
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(open, 5000);
      }
    });
  }

  function close() {
    if (source) {
      source.close();
      source = null;
    }
  }

  window.addEventListener("pagehide", close);
  window.addEventListener("pageshow", open);
  open();

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-left-ms]").forEach(function (el) {
      if (!el.dataset.since) {
        el.dataset.since = String(now);
      }
      var spent = now - Number(el.dataset.since) - Number(el.dataset.afterMs || 0);
      var left = Math.max(0, Number(el.dataset.leftMs) - Math.max(0, spent));
      el.textContent = Math.ceil(left / 1000) + " s";
    });
  }
  setInterval(tick, 250);
})();
