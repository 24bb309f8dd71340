/* The teacher's page of the class game server (GET /teacher#key=...): the join code with its QR
 * code, the students, the tables (who is here, away, left or played by a bot), Start the tables,
 * Next round and the bell. It speaks the teacher's API with the key of the address's fragment
 * (a fragment is never sent to the server; the page keeps the key in this tab only and takes it
 * out of the address bar). Plain JavaScript, nothing from the internet. */
(function () {
  "use strict";
  var KEY = "money-games-teacher-key";
  var key = null, session = null, status = null, timer = null, qrFor = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) { e.textContent = text; } if (cls) { e.className = cls; } return e; }

  (function keyFromAddress() {
    var m = window.location.hash.match(/key=([A-Za-z0-9_-]+)/);
    if (m) {
      try { window.sessionStorage.setItem(KEY, m[1]); } catch (e) { /* private mode: keep it in memory */ }
      key = m[1];
      window.history.replaceState(null, "", window.location.pathname);
    } else {
      try { key = window.sessionStorage.getItem(KEY); } catch (e) { key = null; }
    }
  }());

  function showError(text) { $("error").textContent = text || ""; $("error").hidden = !text; }

  function api(path, method, body) {
    return fetch("/api/teacher" + path, {method: method || "GET", headers: {"Authorization": "Bearer " + key,
      "Content-Type": "application/json"}, body: body === undefined ? undefined : JSON.stringify(body)})
      .then(function (r) {
        var type = r.headers.get("content-type") || "";
        return (type.indexOf("json") >= 0 ? r.json() : r.text()).then(function (data) {
          if (!r.ok) { throw new Error((data && data.error) || String(r.status)); }
          return data;
        });
      });
  }

  function labels() {
    document.title = _("Money games: the teacher's page");
    $("title").textContent = _("The teacher's page");
    $("join-title").textContent = _("Join code");
    $("start").textContent = _("Start the tables");
    $("next").textContent = _("Next round");
    $("bell-now").textContent = _("Ring the bell now");
    $("bell-set").textContent = _("Set the bell");
    $("bell-cancel").textContent = _("Cancel the bell");
    $("close").textContent = _("Close the session to new students");
    $("pick-label").textContent = _("Session");
    $("bell-minutes-label").textContent = _("or in");                  // "Ring the bell now | or in [10] min"
    $("bell-unit").textContent = _("min");
    $("tables-title").textContent = _("Tables");
    $("qr").setAttribute("aria-label", _("QR code of the join address"));
    if ($("conn").className.indexOf(" on") >= 0) { $("conn").textContent = _("connected"); }
    if (lastList.length) { menu(); }                 // the session menu again, in these words
  }

  /* A session's label as the teacher reads it: a lesson's ("lesson 02", the name the lesson finds
   * its session by) in the page's language. */
  function labelText(label) {
    var m = /^lesson (\d+)$/.exec(label || "");
    return m ? fill(_("lesson {n}"), {n: m[1]}) : label;
  }

  function setConn(on) {
    $("conn").textContent = on ? _("connected") : _("reconnecting...");
    $("conn").className = "conn " + (on ? "on" : "off");
  }

  var KINDS = {here: "", away: "away", left: "left", bot: "bot"};

  function seatText(seat) {
    var mark = "";
    if (seat.kind === "bot") { mark = _("bot"); }
    else if (seat.kind === "away" || seat.kind === "left") {
      mark = seat.kind === "left" ? _("left") : _("away");
      if (seat.bot_plays) { mark += ": " + _("a bot plays for them"); }
    }
    return seat.name + (mark ? " (" + mark + ")" : "");
  }

  function tableState(t) {
    if (t.status === "waiting") {
      return t.starts_in === null || t.starts_in === undefined ? _("waiting for the start") :
        fill(_("starts by itself in {s} s"), {s: Math.ceil(t.starts_in)});
    }
    if (t.status === "playing") { return fill(_("playing ({n} moves)"), {n: t.moves}); }
    if (t.status === "stopped") { return t.bell ? _("stopped by the bell") : _("done"); }
    if (t.status === "finished") { return t.sheet_error ? fill(_("game over; not on the score sheet: {why}"), {why: t.sheet_error}) : _("game over"); }
    return t.status;
  }

  function render() {
    var st = status, s = st.session;
    $("session").hidden = false;
    $("code").textContent = s.code;
    var url = s.join_url || (window.location.origin + "/join/" + s.code);
    $("join-url").textContent = fill(_("Students open {url} and type the code and their name."), {url: url});
    var here = st.players.filter(function (p) { return p.connected; }).length;
    $("students").textContent = fill(st.players.length === 1 ? _("{n} student joined ({here} with the page open).") :
      _("{n} students joined ({here} with the page open)."), {n: st.players.length, here: here});
    var box = $("tables");
    box.textContent = "";
    var rows = st.tables.filter(function (t) { return t.round === s.round; });
    if (!rows.length) {
      box.appendChild(el("p", _("No table yet: students join with the code.")));
    } else {
      var table = el("table", undefined, "players");
      var head = el("tr");
      [_("table"), _("players"), _("progress")].forEach(function (h) { var th = el("th", h); th.scope = "col"; head.appendChild(th); });
      table.appendChild(head);
      rows.forEach(function (t) {
        var tr = el("tr");
        tr.setAttribute("data-table", String(t.number));
        tr.setAttribute("data-status", t.status);
        tr.appendChild(el("td", String(t.number)));
        var who = el("td");
        t.seats.forEach(function (seat, i) {
          if (!seat.name) { return; }
          var span = el("span", seatText(seat), "seat " + (KINDS[seat.kind] || ""));
          span.setAttribute("data-kind", seat.kind);
          if (i) { who.appendChild(document.createTextNode(", ")); }
          who.appendChild(span);
        });
        tr.appendChild(who);
        tr.appendChild(el("td", tableState(t)));
        table.appendChild(tr);
      });
      box.appendChild(table);
    }
    var bell = s.bell_in;
    $("bell").hidden = bell === null || bell === undefined;
    $("bell").textContent = bell === null || bell === undefined ? "" :
      fill(_("The bell rings in {m} min {s} s: every table still playing then stops."), {m: Math.floor(bell / 60), s: Math.round(bell % 60)});
    $("bell-cancel").hidden = $("bell").hidden;
    $("close").disabled = s.status !== "open";
    if (qrFor !== s.id) {
      qrFor = s.id;
      api("/sessions/" + s.id + "/qr.svg").then(function (svg) { $("qr").innerHTML = svg; }).catch(function () { $("qr").textContent = ""; });
    }
  }

  function refresh() {
    if (session === null) { return Promise.resolve(); }
    return api("/sessions/" + session).then(function (st) {
      status = st;
      setConn(true);
      useLanguage(st.session.lang, function () { labels(); render(); });
    }).catch(function (e) { setConn(false); showError(e.message); });
  }

  var listed = "", lastList = [];

  function sessions() {
    return api("/sessions").then(function (list) {
      var sig = JSON.stringify(list.map(function (s) { return [s.id, s.status]; }));
      if (sig === listed) { return; }                 // unchanged: the menu stays as the teacher left it
      listed = sig;
      lastList = list;
      menu();
    });
  }

  function menu() {                                   // the session menu (again in new words: labels())
    var list = lastList, pick = $("pick");
    pick.textContent = "";
    list.slice().reverse().forEach(function (s) {
      var o = el("option", s.code + " · " + s.title + (s.label ? " · " + labelText(s.label) : "") + (s.status === "open" ? "" : " (" + _("closed") + ")"));
      o.value = String(s.id);
      pick.appendChild(o);
    });
    var open = list.filter(function (s) { return s.status === "open"; });
    if (session === null && list.length) { session = (open.length ? open[open.length - 1] : list[list.length - 1]).id; }
    pick.value = session === null ? "" : String(session);
    if (session === null && listed) { showError(_("No session yet: open one from the command line or a lesson.")); }
  }

  function act(promise) {
    showError("");
    promise.then(refresh).catch(function (e) { showError(e.message); });
  }

  /* No key: say so in the browser's language (the server reads its Accept-Language). */
  function noKey() {
    document.title = _("Money games: the teacher's page");
    $("title").textContent = _("The teacher's page");
    $("nokey-title").textContent = _("The teacher's key is missing");
    var parts = _("Open this page with the address the class game server printed (it ends with {key}).").split("{key}");
    var text = $("nokey-text");
    text.textContent = parts[0];
    text.appendChild(el("code", "#key=..."));
    text.appendChild(document.createTextNode(parts.slice(1).join("")));
    $("conn").textContent = _("not connected");
    $("nokey").hidden = false;
  }

  if (!key) { guessLanguage("", noKey); return; }
  labels();
  $("pick").addEventListener("change", function () { session = parseInt($("pick").value, 10); qrFor = null; refresh(); });
  $("start").addEventListener("click", function () { act(api("/sessions/" + session + "/start", "POST", {})); });
  $("next").addEventListener("click", function () { act(api("/sessions/" + session + "/next-round", "POST", {})); });
  $("bell-now").addEventListener("click", function () { act(api("/sessions/" + session + "/bell", "POST", {"in": 0})); });
  $("bell-set").addEventListener("click", function () {
    var minutes = parseFloat($("bell-minutes").value);
    if (!(minutes > 0 && minutes <= 240)) { showError(_("The bell rings after 1 to 240 minutes.")); return; }
    act(api("/sessions/" + session + "/bell", "POST", {"in": Math.round(minutes * 60)}));
  });
  $("bell-cancel").addEventListener("click", function () { act(api("/sessions/" + session + "/bell", "POST", {cancel: true})); });
  $("close").addEventListener("click", function () {
    if (window.confirm(_("Close the session to new students? Tables being played go on."))) { act(api("/sessions/" + session + "/close", "POST", {})); }
  });
  sessions().then(refresh).catch(function (e) { showError(e.message); setConn(false); });
  timer = window.setInterval(function () { sessions().then(refresh).catch(function () { setConn(false); }); }, 2000);
}());
