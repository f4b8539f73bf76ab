(function () {
  "use strict";
  var root = document.getElementById("bankid-order");
  if (!root) { return; }
  var session = root.getAttribute("data-session");
  var expiresAt = Number(root.getAttribute("data-expires-at"));
  var qr = document.getElementById("qr");
  var status = document.getElementById("status");
  var timeLeft = document.getElementById("time-left");
  var warning = document.getElementById("time-warning");
  var warned = false;
  var ended = false;

  function post(path, body) {
    return fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body)
    }).then(function (response) { return response.json(); });
  }
  function say(text) {
    if (text && status.textContent !== text) { status.textContent = text; }
  }
  function frame() {
    if (ended) { return; }
    post("/bankid/orders/qr", { sessionId: session, format: "svg" }).then(function (answer) {
      if (answer.svg) { qr.innerHTML = answer.svg; }
    }).catch(function () {});
  }
  function collect() {
    if (ended) { return; }
    post("/oauth/bankid/other-device/collect", { sessionId: session }).then(function (answer) {
      say(answer.message);
      if (answer.redirect) {
        ended = true;
        window.location.assign(answer.redirect);
      }
    }).catch(function () {});
  }
  function tick() {
    var seconds = Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000));
    var rest = seconds % 60;
    timeLeft.textContent = Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
    if (seconds <= 60 && !warned) { warned = true; warning.textContent = root.getAttribute("data-one-minute"); }
  }
  setInterval(frame, 1000);
  setInterval(collect, 2000);
  setInterval(tick, 1000);
})();
