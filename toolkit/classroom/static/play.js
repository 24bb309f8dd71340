/* The student's page of the class game server: join with a code and a name, then play, and
 * answer the questions the teacher sends ({type: "question"}: a choice, a typed number or a
 * slider; answered with {type: "answer", question, value}; the answer shows only once the
 * teacher reveals it: the server does not know it before).
 * It shows what the server sends for this seat only (the server never sends another seat's
 * hidden cards) and sends moves as {type: "move", version, index} (BuyWord: {..., word}, a word
 * the student spelt from their tiles). The move log comes whole on connecting, then only its new
 * lines: each state message carries log_from (the first line it replaces) and log. The seat token stays in
 * this browser's localStorage, so a reload or a return gets the seat back.
 * Plain JavaScript, no library, nothing loaded from the internet. */
(function () {
  "use strict";
  var KEY = "money-games-seat";
  // the session the stored seat belongs to, and the name the student joined with last (a student
  // keeps one name across the term if they want: the join form offers it again)
  var CODE_KEY = "money-games-seat-code", NAME_KEY = "money-games-name";
  var linkCode = "";               // the join code of the address this page was opened with
  // the names of the lists of moves (translated where shown: _(GROUPS[g]))
  var GROUPS = {Swap: N_("Swap a card"), Sell: N_("Sell a set"), Bid: N_("Bid"), Play: N_("Play a bill"),
    Claim: N_("Claim a stack"), Force: N_("Five Max"), PlayCard: N_("Play a card"), DeclareBug: N_("Choose your bug suit"),
    SellWord: N_("Sell a word"), Discard: N_("Discard"), Reveal: N_("Reveal a card"), Offer: N_("Make an offer"),
    Choose: N_("How many tiles"), Take: N_("Take a tile"), Place: N_("Place a word")};
  var ws = null, state = null, pending = false, backoff = 500, shownError = "";
  var online = false, retryTimer = null, lastHeard = 0;
  var logLines = [], typedWord = "", logFollows = true;
  var question = null, qDraft = null, qPending = false, qError = "", qUnfolded = null;

  function $(id) { return document.getElementById(id); }
  function stored(name) { try { return window.localStorage.getItem(name); } catch (e) { return null; } }
  function store(name, value) { try { if (value) { window.localStorage.setItem(name, value); } else { window.localStorage.removeItem(name); } } catch (e) { /* private mode */ } }
  function getToken() { return stored(KEY); }
  function setToken(t, code) { store(KEY, t); store(CODE_KEY, t ? code || null : null); }
  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) { e.textContent = text; } if (cls) { e.className = cls; } return e; }

  /* The page's own words (index.html is written in English): in the page's language. */
  var connTried = false;
  function labels() {
    if (!state) {
      document.title = _("Money games: play in class");
      $("title").textContent = _("Money games");
    }
    $("join-title").textContent = _("Join your class's game");
    $("code-label").textContent = _("Join code (on the board)");
    $("name-label").textContent = _("Your name");
    $("join-button").textContent = _("Join");
    $("offline").textContent = _("Not connected to the class server: reconnecting\u2026 Your moves wait until it is back.");
    $("seats").setAttribute("aria-label", _("Who plays at your table"));
    $("moves").setAttribute("aria-label", _("Your moves"));
    $("log-name").textContent = _("Moves so far");
    $("log-hint").textContent = _("(the latest at the bottom)");
    $("conn").textContent = online ? _("connected") : connTried ? _("reconnecting...") : _("not connected");
  }

  /* A sentence for a screen reader to say (a polite live region): the verdict of an answer. */
  function announce(text) { $("announce").textContent = text; }

  /* The status line ("Your move!", "Time!"): a live region, written only when it changes (a
   * screen reader would say it again on every message of the table otherwise). */
  function setStatus(text, cls) {
    var status = $("status");
    if (status.textContent !== text) { status.textContent = text; }
    var want = "status-line" + (cls ? " " + cls : "");
    if (status.className !== want) { status.className = want; }
  }

  function codeFromAddress() {
    var m = window.location.pathname.match(/\/join\/([A-Za-z0-9]+)/);
    if (m) { return m[1].toUpperCase(); }
    var q = new URLSearchParams(window.location.search).get("code");
    return q ? q.toUpperCase() : "";
  }

  function showJoin(message, code) {
    $("play").hidden = true;
    $("closed").hidden = true;
    $("join").hidden = false;
    if (code) { $("code").value = code; } else if (!$("code").value) { $("code").value = codeFromAddress(); }
    if (!$("name").value && stored(NAME_KEY)) { $("name").value = stored(NAME_KEY); }
    $("join-error").textContent = message || "";
    ($("code").value ? $("name") : $("code")).focus();
  }

  function join(ev) {
    ev.preventDefault();
    $("join-button").disabled = true;
    $("join-error").textContent = "";
    fetch("/api/join", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({code: $("code").value.trim().toUpperCase(), name: $("name").value})})
      .then(function (r) { return r.json().then(function (data) { return {ok: r.ok, data: data}; }); })
      .then(function (res) {
        $("join-button").disabled = false;
        if (!res.ok) {
          $("join-error").textContent = res.data.error || _("Could not join.");
          if (res.data.retry_after) { holdJoin(res.data.retry_after); }
          return;
        }
        if (ws) { var old = ws; ws = null; old.onclose = null; old.close(); }   // last session's seat
        setToken(res.data.token, res.data.code);
        store(NAME_KEY, res.data.name);
        linkCode = "";
        state = null; logLines = []; question = null;
        if (window.location.pathname !== "/") { window.history.replaceState(null, "", "/"); }
        connect();
      })
      .catch(function () { $("join-button").disabled = false; $("join-error").textContent = _("The server cannot be reached: check the address."); });
  }

  // -- the connection -------------------------------------------------------------------
  // While the page cannot reach the server it says so in a banner and its move buttons are
  // disabled (a tap would be lost); it reconnects by itself, waiting longer after each failed
  // try (0.5 s doubling up to 8 s, with jitter so that a class does not reconnect in step), and
  // at once when the device is back online or the page is shown again.
  function holdJoin(seconds) {
    var b = $("join-button");
    b.disabled = true;
    window.setTimeout(function () { b.disabled = false; }, Math.ceil(seconds) * 1000);
  }

  function applyConnection() {
    var box = $("moves");
    var controls = box.querySelectorAll("button, select, input");
    for (var i = 0; i < controls.length; i++) {
      if (!online) { controls[i].disabled = true; } else if (!pending && controls[i].hasAttribute("data-offline")) { controls[i].disabled = false; }
      if (!online) { controls[i].setAttribute("data-offline", "1"); } else { controls[i].removeAttribute("data-offline"); }
    }
    $("leave").disabled = !online;
    var qControls = $("question").querySelectorAll("button, input");
    for (var q = 0; q < qControls.length; q++) {
      if (!online) { qControls[q].disabled = true; } else if (!qPending && question && question.status === "open") { qControls[q].disabled = false; }
    }
    if (!online && state && state.your_turn && !state.result) {
      setStatus(_("Your move, as soon as the connection is back."), "mine");
    }
  }

  function setConn(on) {
    online = on;
    connTried = true;
    var c = $("conn");
    c.textContent = on ? _("connected") : _("reconnecting...");
    c.className = "conn " + (on ? "on" : "off");
    $("offline").hidden = on || $("play").hidden;
    document.body.classList.toggle("is-offline", !on);
    applyConnection();
  }

  function scheduleConnect() {
    if (retryTimer !== null || ws) { return; }
    var wait = backoff * (0.5 + Math.random());
    backoff = Math.min(backoff * 2, 8000);
    retryTimer = window.setTimeout(function () { retryTimer = null; connect(); }, wait);
  }

  function connectNow() {
    if (retryTimer !== null) { window.clearTimeout(retryTimer); retryTimer = null; }
    if (!ws) { connect(); }
  }

  function connect() {
    if (!getToken()) { showJoin(""); return; }
    if (ws) { return; }
    var proto = window.location.protocol === "https:" ? "wss:" : "ws:";
    var sock = new WebSocket(proto + "//" + window.location.host + "/ws");
    ws = sock;
    sock.onopen = function () { lastHeard = Date.now(); sock.send(JSON.stringify({type: "hello", token: getToken()})); };
    sock.onmessage = function (ev) {
      lastHeard = Date.now();
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      handle(msg);
    };
    sock.onclose = function (ev) {
      if (ws === sock) { ws = null; }
      setConn(false);
      if (ev.code === 4401) { return; }                 // refused token: the join form is shown
      scheduleConnect();                                // the network or the server went away: try again
    };
  }

  // a connection that went quiet (Wi-Fi lost without a word) is closed, so the page reconnects
  window.setInterval(function () {
    if (ws && ws.readyState === 1) {
      if (Date.now() - lastHeard > 45000) { ws.close(); return; }
      if (Date.now() - lastHeard > 15000) { send({type: "ping"}); }
    }
  }, 5000);
  window.addEventListener("online", connectNow);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { connectNow(); } });

  // a link from the teacher ("move to a new device"): /#seat=<token> takes that seat here
  (function seatFromLink() {
    var m = window.location.hash.match(/^#seat=([A-Za-z0-9_-]{20,})$/);
    if (m) {
      setToken(m[1]);
      window.history.replaceState(null, "", "/");
    }
  }());

  // who plays at the table, with a mark for a student away and whether a bot plays for them
  function renderSeats(st) {
    var box = $("seats");
    box.textContent = "";
    var names = st.players || st.seats || [];
    names.forEach(function (name, i) {
      if (name === null || name === undefined) { return; }
      var kind = st.kinds ? st.kinds[i] : (st.seats && st.seats[i] === null ? "bot" : "here");
      var botPlays = st.bots_playing ? st.bots_playing[i] : false;
      var li = el("li", name, kind);
      li.setAttribute("data-seat", String(i));
      li.setAttribute("data-kind", kind);
      var mark = "";
      if (i === st.seat) { li.className += " you"; mark = _("you"); }
      if (kind === "away" || kind === "left") {
        mark = kind === "left" ? _("left") : _("away");
        if (botPlays) { mark = fill(_("{mark} - a bot is playing for {name}"), {mark: mark, name: name}); }
      } else if (kind === "bot") {
        mark = _("bot");
      }
      if (mark) { li.appendChild(document.createTextNode(" ")); li.appendChild(el("span", "(" + mark + ")", "mark")); }
      box.appendChild(li);
    });
    box.hidden = !box.childNodes.length;
  }

  function send(msg) {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(msg)); return true; }
    return false;
  }

  function showError(text) {
    shownError = text || "";
    $("error").textContent = shownError;
    $("error").hidden = !shownError;
  }

  // -- a question from the teacher ---------------------------------------------------------
  function sendAnswer(value) {
    if (!question || question.status !== "open" || qPending) { return; }
    qError = "";
    if (!online || !send({type: "answer", question: question.id, value: value})) {
      qError = _("Not connected: wait a moment, then send your answer again.");
    } else {
      qPending = true;
    }
    renderQuestion();
  }

  function number(x) {            // a number as the session's language writes it (2,6 in Italian)
    try { return Number(x).toLocaleString(question.lang || "en", {maximumFractionDigits: 6}); } catch (e) { return String(x); }
  }

  function shown(value) {
    if (value === null || value === undefined) { return ""; }
    var text = typeof value === "number" && question.kind !== "choice" ? number(value) : String(value);
    return text + (question.unit && question.kind !== "choice" ? " " + question.unit : "");
  }

  function renderQuestion() {
    var box = $("question");
    box.textContent = "";
    if (!question || $("play").hidden) { box.hidden = true; return; }
    box.hidden = false;
    var st = question.status, open = st === "open", rev = question.reveal || null;
    box.setAttribute("data-question", String(question.id));
    box.setAttribute("data-status", st);
    var answer = rev ? rev.answer : null;
    box.setAttribute("aria-labelledby", open ? "q-title" : rev ? "q-verdict" : "q-closed");
    if (open) {
      var title = el("h2", _("A question from your teacher"));
      title.id = "q-title";
      box.appendChild(title);
    } else {
      // answered and closed (or revealed): one line on top of the page, the rest folded away, so
      // the table and "Your move!" stay where a phone shows them (the details open on a tap)
      var done = el("details", undefined, "question-done");
      done.open = qUnfolded === question.id;
      done.addEventListener("toggle", function () { qUnfolded = done.open ? question.id : null; });
      var head = el("summary", "", "verdict");
      if (rev) {
        head.id = "q-verdict";
        if (answer === null) {
          head.textContent = _("Look at the board: your teacher shows what the class answered.");
        } else {
          head.textContent = fill(_("The answer: {answer}."), {answer: shown(answer)}) + (rev.right === true ? " " + _("You were right!") : rev.right === false ? " " + _("Yours was not quite right.") : "");
          head.className = "verdict " + (rev.right === true ? "right" : rev.right === false ? "wrong" : "");
        }
      } else {
        head.id = "q-closed";
        head.textContent = _("Answers are closed: wait for your teacher.");
      }
      done.appendChild(head);
      box.appendChild(done);
      box = done;
    }
    var prompt = el("div", undefined, "prompt");
    prompt.innerHTML = question.prompt;          // simple HTML only: the server keeps <b>, <i>... and escapes the rest
    box.appendChild(prompt);
    if (question.kind === "choice") {
      var list = el("div", undefined, "options");
      question.options.forEach(function (o, i) {
        var mine = question.yours === o, right = rev && answer === o;
        // before the reveal a tick marks the student's choice; after it the words say which was
        // theirs and which was right (a tick on a wrong choice read as "right")
        var words = (mine && !rev ? "\u2713 " : "") + o + (rev && mine ? " " + _("(your answer)") : "") +
                    (right ? " " + _("(the answer)") : "");
        var b = el("button", words, "option" + (mine ? " chosen" : "") + (right ? " right" : ""));
        b.type = "button";
        b.setAttribute("data-option", String(i));
        b.setAttribute("aria-pressed", mine ? "true" : "false");
        b.disabled = !open || qPending || !online;
        b.addEventListener("click", function () { sendAnswer(i); });
        list.appendChild(b);
      });
      box.appendChild(list);
    } else if (open) {
      var row = el("div", undefined, "answer-row");
      var input = el("input");
      var readout = null;
      if (question.kind === "slider") {
        var sl = question.slider;
        input.type = "range";
        input.min = String(sl.min); input.max = String(sl.max); input.step = String(sl.step);
        var start = qDraft !== null ? qDraft : (question.yours !== null ? question.yours : sl.min + Math.round((sl.max - sl.min) / sl.step / 2) * sl.step);
        input.value = String(start);
        readout = el("output", shown(input.value), "readout");
        readout.id = "q-readout";
        input.addEventListener("input", function () { qDraft = input.value; readout.textContent = shown(input.value); });
      } else {
        input.type = "text";
        input.setAttribute("inputmode", "decimal");
        input.setAttribute("autocomplete", "off");
        input.maxLength = 40;
        input.placeholder = question.range ? fill(_("a number from {lo} to {hi}"), {lo: number(question.range.min), hi: number(question.range.max)}) :
          fill(_("a number, e.g. {example}"), {example: number(27.5)});
        input.value = qDraft !== null ? qDraft : (question.yours !== null ? (typeof question.yours === "number" ? number(question.yours).replace(/\u00a0|\u202f/g, "") : String(question.yours)) : "");
        input.addEventListener("input", function () { qDraft = input.value; });
        input.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { go.click(); } });
      }
      input.id = "q-input";
      input.setAttribute("aria-label", _("Your answer") + (question.unit ? " (" + question.unit + ")" : ""));
      row.appendChild(input);
      if (readout) { row.appendChild(readout); } else if (question.unit) { row.appendChild(el("span", question.unit, "unit")); }
      box.appendChild(row);
      var go = el("button", question.yours !== null ? _("Change my answer") : _("Send my answer"), "move");
      go.type = "button";
      go.id = "q-send";
      go.disabled = qPending || !online;
      go.addEventListener("click", function () {
        if (question.kind === "slider") { sendAnswer(parseFloat(input.value)); return; }
        if (!input.value.trim()) { qError = _("Type a number first."); renderQuestion(); return; }
        sendAnswer(input.value.trim());
      });
      box.appendChild(go);
    }
    var line = el("p", "", "your-answer");
    line.id = "q-yours";
    if (question.yours !== null) {
      line.textContent = fill(open ? _("Your answer: {answer}. You can change it until your teacher shows the answer.") :
        _("Your answer: {answer}."), {answer: shown(question.yours)});
    } else {
      line.textContent = open ? (qPending ? _("Sending...") : _("Answer here, then wait for your teacher.")) : _("You did not answer this one.");
    }
    box.appendChild(line);
    if (rev) {
      if (rev.explanation) {
        var ex = el("div", undefined, "explanation");
        ex.innerHTML = rev.explanation;          // cleaned by the server, as the prompt
        box.appendChild(ex);
      }
    }
    if (qError) { var err = el("p", qError, "error"); err.setAttribute("role", "alert"); box.appendChild(err); }
  }

  function handle(msg) {
    if (msg.type === "question") {
      if (!question || question.id !== msg.id) { qDraft = null; qError = ""; qPending = false; }
      if (msg.status !== "open") { qPending = false; }
      var newly = msg.status === "revealed" && !(question && question.id === msg.id && question.status === "revealed");
      question = msg;
      renderQuestion();
      if (newly && $("q-verdict")) { announce($("q-verdict").textContent); }
      return;
    }
    if (msg.type === "answered") {
      if (question && question.id === msg.question) { question.yours = msg.value; question.tries = msg.tries; }
      qPending = false; qError = ""; qDraft = null;
      renderQuestion();
      if ($("q-yours")) { announce($("q-yours").textContent); }
      return;
    }
    if (msg.type === "error" && qPending && (msg.code === "bad_answer" || msg.code === "closed")) {
      qPending = false; qError = msg.message;
      renderQuestion();
      return;
    }
    if (msg.type === "state") {
      backoff = 500;
      setConn(true);
      pending = false;
      if (linkCode && msg.code !== linkCode) {
        // the address is another session's join link: it wins over the seat this browser holds
        leaveSeatFor(linkCode);
        return;
      }
      linkCode = "";
      if (getToken()) { store(CODE_KEY, msg.code); }
      var first = true;
      useLanguage(msg.lang, function () {           // the session's words arrived: the page again in them
        labels();
        if (!first && state) { render(state); renderQuestion(); }
      });
      first = false;
      if (msg.log && msg.log_from > logLines.length) {   // lines were lost on the way: reconnect for the whole log
        if (ws) { ws.close(); }
        return;
      }
      render(msg);
    } else if (msg.type === "ack") {
      pending = false;
      typedWord = "";                                   // the word was sold: the next one starts empty
      showError("");
    } else if (msg.type === "error") {
      if (msg.code === "bad_token") { setToken(null); showJoin(msg.message); return; }
      if (msg.code === "rate_limited") { showError(msg.message); return; }
      pending = false;
      showError(msg.message);
      renderMoves();
    }
  }

  /* The seat this browser holds belongs to another session than the join link it was opened
   * with (last week's lesson): the link wins. The old seat's token is kept until the new join
   * succeeds; the join form offers the link's code and the name the student used last. */
  function leaveSeatFor(code) {
    if (ws) { var old = ws; ws = null; old.onclose = null; old.close(); }
    setConn(false);
    linkCode = "";
    showJoin("", code);
  }

  /* A closed session (the teacher ended it): the page says so and leads to the next one. */
  function renderClosed(st) {
    var box = $("closed");
    box.textContent = "";
    if (st.session_status !== "closed") { box.hidden = true; return; }
    box.hidden = false;
    box.appendChild(el("h2", _("This class game is closed")));
    var name = stored(NAME_KEY) || st.you;
    if (st.next_code) {
      box.appendChild(el("p", fill(_("Your teacher opened a new one: code {code}."), {code: st.next_code})));
      var again = el("button", fill(_("Join {code} as {name}"), {code: st.next_code, name: name}), "move");
      again.type = "button";
      again.id = "join-next";
      again.addEventListener("click", function () {
        $("code").value = st.next_code;
        $("name").value = name;
        leaveSeatFor(st.next_code);
        $("join-button").click();
      });
      box.appendChild(again);
    } else {
      box.appendChild(el("p", _("When your teacher gives a new code, type it here.")));
    }
    var other = el("button", _("Join with another code or name"), "secondary");
    other.type = "button";
    other.id = "join-other";
    other.addEventListener("click", function () { leaveSeatFor(st.next_code || ""); });
    box.appendChild(other);
  }

  /* An induced-value activity (BUX's lot): what the lot is worth to this student, the drawer's
   * half-value line, and once it is sold the student's profit. */
  function renderValues(st) {
    var box = $("values");
    box.textContent = "";
    if (!st.values) { box.hidden = true; return; }
    box.hidden = false;
    box.appendChild(el("h2", fill(_("Worth to you: {value} bux"), {value: st.values.value})));
    st.values.lines.forEach(function (line) { box.appendChild(el("p", line)); });
  }

  function play(index) { sendMove({index: index}); }

  function sendMove(extra) {
    if (pending || !state) { return; }
    pending = true;
    showError("");
    var buttons = $("moves").querySelectorAll("button, select, input");
    for (var i = 0; i < buttons.length; i++) { buttons[i].disabled = true; }
    var msg = {type: "move", version: state.version};
    for (var k in extra) { if (Object.prototype.hasOwnProperty.call(extra, k)) { msg[k] = extra[k]; } }
    if (!online || !send(msg)) { pending = false; showError(_("Not connected: wait a moment.")); renderMoves(); applyConnection(); }
  }

  /* BuyWord: the student spells a word from their own tiles (tap them or type); the page shows
   * its pips and price as it grows; the server checks the word (the dictionary says no with a
   * reason). A Wild stands for the one letter the student lacks. */
  function wordCheck(entry, word) {
    var have = {}, i, c, missing = [], pips = 0;
    for (i = 0; i < entry.tiles.length; i++) { c = entry.tiles[i]; have[c] = (have[c] || 0) + 1; }
    for (i = 0; i < word.length; i++) {
      c = word[i];
      if (have[c]) { have[c] -= 1; pips += entry.pips[c] || 1; } else { missing.push(c); }
    }
    var wild = missing.length === 1 && entry.wilds > 0;
    if (wild) { pips += entry.wild_pips; }
    return {missing: missing, wild: wild ? missing[0] : null, pips: pips, ok: word.length >= entry.min_length && (!missing.length || wild)};
  }

  function renderWordEntry(box, entry) {
    var field = el("div", undefined, "move-group word-entry");
    field.appendChild(el("h2", _("Sell a word: spell it with your tiles")));
    var tiles = el("div", undefined, "word-tiles");
    var input = el("input");
    input.id = "word";
    input.setAttribute("autocomplete", "off");
    input.setAttribute("autocapitalize", "characters");
    input.setAttribute("spellcheck", "false");
    input.setAttribute("aria-label", _("Your word"));
    input.maxLength = 20;
    var info = el("p", "", "word-info");
    info.id = "word-info";
    info.setAttribute("aria-live", "polite");
    var sell = el("button", _("Sell this word"), "move");
    sell.type = "button";
    sell.id = "sell-word";
    function update() {
      var word = input.value.toUpperCase().replace(/[^A-Z]/g, "");
      if (word !== input.value) { input.value = word; }
      typedWord = word;
      var chk = wordCheck(entry, word);
      var used = {}, k;
      for (k = 0; k < word.length; k++) { used[word[k]] = (used[word[k]] || 0) + 1; }
      var wildTile = tiles.querySelector("button.wild");
      if (wildTile) { wildTile.classList.toggle("used", !!chk.wild); wildTile.setAttribute("aria-disabled", chk.wild ? "true" : "false"); }
      var btns = tiles.querySelectorAll("button[data-letter]");
      for (k = 0; k < btns.length; k++) {
        var l = btns[k].getAttribute("data-letter");
        if (used[l]) { used[l] -= 1; btns[k].classList.add("used"); } else { btns[k].classList.remove("used"); }
        btns[k].setAttribute("aria-disabled", btns[k].classList.contains("used") ? "true" : "false");
      }
      if (!word) {
        info.textContent = fill(_("Tap your tiles or type a word of {n} letters or more."), {n: entry.min_length});
      } else if (chk.missing.length && !chk.wild) {
        info.textContent = fill(entry.wilds ? _("{word}: you have no {letters} (a Wild stands for one letter only).") :
          _("{word}: you have no {letters}."), {word: word, letters: chk.missing.join(", ")});
      } else {
        info.textContent = fill(chk.pips === 1 ? _("{word}: {n} pip = ${dollars}") : _("{word}: {n} pips = ${dollars}"),
          {word: word, n: chk.pips, dollars: chk.pips * chk.pips}) +
          (chk.wild ? " " + fill(_("(your Wild is the {letter})"), {letter: chk.wild}) : "") +
          (word.length < entry.min_length ? _("; too short") : "");
      }
      sell.disabled = pending || !chk.ok;
    }
    for (var i = 0; i < entry.tiles.length; i++) {
      (function (letter) {
        var b = el("button", undefined, "tile");
        b.type = "button";
        b.setAttribute("data-letter", letter);
        b.appendChild(el("span", letter));
        b.appendChild(el("small", new Array((entry.pips[letter] || 1) + 1).join("\u25cf")));
        b.addEventListener("click", function () {
          if (b.classList.contains("used")) { return; }
          input.value += letter;
          update();
        });
        tiles.appendChild(b);
      }(entry.tiles[i]));
    }
    for (var w = 0; w < entry.wilds; w++) {
      var wb = el("button", undefined, "tile wild");
      wb.type = "button";
      wb.title = _("A Wild stands for a letter you do not have: type that letter");
      wb.appendChild(el("span", "?"));
      wb.appendChild(el("small", _("Wild")));
      wb.addEventListener("click", function () { input.focus(); info.textContent = _("Type the letter your Wild stands for."); });
      tiles.appendChild(wb);
    }
    var back = el("button", "\u232b", "secondary small");
    back.type = "button";
    back.setAttribute("aria-label", _("Remove the last letter"));
    back.addEventListener("click", function () { input.value = input.value.slice(0, -1); update(); });
    var clear = el("button", _("Clear"), "secondary small");
    clear.type = "button";
    clear.addEventListener("click", function () { input.value = ""; update(); });
    input.addEventListener("input", update);
    input.addEventListener("keydown", function (ev) { if (ev.key === "Enter" && !sell.disabled) { sell.click(); } });
    sell.addEventListener("click", function () { sendMove({word: input.value}); });
    var row = el("div", undefined, "word-row");
    row.appendChild(input);
    row.appendChild(back);
    row.appendChild(clear);
    field.appendChild(tiles);
    field.appendChild(row);
    field.appendChild(info);
    field.appendChild(sell);
    box.appendChild(field);
    input.value = typedWord;
    update();
  }

  function renderMoves() {
    var box = $("moves");
    box.textContent = "";
    var entry = state && state.your_turn ? state.word_entry : null;
    if (!entry) { typedWord = ""; }
    if (!state || !state.your_turn || ((!state.moves || !state.moves.length) && !entry)) { box.hidden = true; return; }
    box.hidden = false;
    if (entry) { renderWordEntry(box, entry); }
    var groups = [], byName = {};
    state.moves.forEach(function (m) {
      if (!byName[m.group]) { byName[m.group] = []; groups.push(m.group); }
      byName[m.group].push(m);
    });
    groups.forEach(function (g) {
      var moves = byName[g];
      var field = el("div", undefined, "move-group");
      if (moves.length <= 6) {
        moves.forEach(function (m) {
          var b = el("button", m.sentence, "move");
          b.type = "button";
          b.setAttribute("data-index", String(m.index));
          b.setAttribute("data-move", m.text);
          b.addEventListener("click", function () { play(m.index); });
          field.appendChild(b);
        });
      } else {
        var id = "pick-" + g;
        var label = el("label", fill(_("{group} ({n} choices)"), {group: GROUPS[g] ? _(GROUPS[g]) : g, n: moves.length}));
        label.setAttribute("for", id);
        var sel = el("select");
        sel.id = id;
        moves.forEach(function (m) {
          var o = el("option", m.sentence);
          o.value = String(m.index);
          o.setAttribute("data-move", m.text);
          sel.appendChild(o);
        });
        var go = el("button", moves[0].sentence, "move");
        go.type = "button";
        go.setAttribute("data-group", g);
        go.addEventListener("click", function () { play(parseInt(sel.value, 10)); });
        sel.addEventListener("change", function () { go.textContent = sel.options[sel.selectedIndex].textContent; });
        field.appendChild(label);
        field.appendChild(sel);
        field.appendChild(go);
      }
      box.appendChild(field);
    });
  }

  function renderResult() {
    var box = $("result");
    box.textContent = "";
    if (!state.result) { return; }
    var order = state.players.map(function (n, i) { return i; });
    order.sort(function (a, b) { return state.result.places[a] - state.result.places[b]; });
    var t = el("table", undefined, "result");
    var cap = el("caption", state.result.stopped ? _("Where everyone stands") : _("Final result"));
    t.appendChild(cap);
    var head = el("tr");
    var cards = state.result.cards;
    [_("place"), _("player"), state.result.unit].concat(cards ? [state.result.cards_title || _("cards")] : []).forEach(function (h) { head.appendChild(el("th", h)); });
    t.appendChild(head);
    order.forEach(function (i) {
      var tr = el("tr", undefined, i === state.seat ? "you" : "");
      tr.setAttribute("data-result-seat", String(i));
      tr.appendChild(el("td", String(state.result.places[i])));
      tr.appendChild(el("td", state.players[i] + (i === state.seat ? " " + _("(you)") : "")));
      tr.appendChild(el("td", String(state.result.scores[i])));
      if (cards) {
        var td = el("td", undefined, "final-cards");
        td.innerHTML = cards[i];      // drawn by the server once the game is over: every card shown
        tr.appendChild(td);
      }
      t.appendChild(tr);
    });
    box.appendChild(t);
  }

  /* The whole log, numbered from the first move; a message replaces the lines from log_from on
   * (the last line may have grown a "(x3)"); the list stays scrolled to the latest line while the
   * student has not scrolled up. */
  function renderLog(st) {
    var log = $("log");
    if (!st.log) {
      logLines = [];
      log.textContent = "";
    } else {
      var from = Math.min(st.log_from || 0, logLines.length);
      logLines = logLines.slice(0, from).concat(st.log);
      while (log.children.length > from) { log.removeChild(log.lastChild); }
      for (var i = from; i < logLines.length; i++) { log.appendChild(el("li", logLines[i])); }
    }
    // no moves yet (waiting for the table, a question before the game): no empty list to Tab to
    // and no heading over nothing; the log and its heading appear with the first line
    log.hidden = $("log-title").hidden = logLines.length === 0;
    if (!logLines.length) { return; }
    if (logFollows || from === 0) { log.scrollTop = log.scrollHeight; }
  }

  function render(st) {
    state = st;
    $("join").hidden = true;
    $("play").hidden = false;
    $("title").textContent = st.title;
    document.title = fill(_("{title}: table {n}"), {title: st.title, n: st.table || "-"});
    var where = fill(_("You: {name}"), {name: st.you}) + (st.table ? " \u00b7 " + fill(_("table {n}"), {n: st.table}) : "") +
      " \u00b7 " + fill(_("round {n}"), {n: st.round}) + " \u00b7 " + fill(_("code {code}"), {code: st.code});
    if (st.bell_in !== undefined && st.bell_in !== null) {
      where += " \u00b7 " + fill(_("the bell rings in {m} min"), {m: Math.max(1, Math.ceil(st.bell_in / 60))});
    }
    $("where").textContent = where;
    if (st.status === "waiting") {
      var taken = st.seats.filter(function (s) { return s !== null; });
      if (taken.length === st.seats.length) {
        setStatus(fill(_("Your table is ready: {names}. The game starts when your teacher starts it."), {names: taken.join(", ")}));
      } else if (st.starts_in !== undefined && st.starts_in !== null) {
        setStatus(fill(_("Waiting for players: {names} ({n} of {seats} seats). The game starts in about {s} s, or as soon as the table is full (bots take the empty seats)."),
          {names: taken.join(", "), n: taken.length, seats: st.seats.length, s: st.starts_in}));
      } else {
        setStatus(fill(st.start_when_full === false ?
          _("Waiting for players: {names} ({n} of {seats} seats). The game starts when your teacher starts it (bots take the empty seats).") :
          _("Waiting for players: {names} ({n} of {seats} seats). The game starts when the table is full or when your teacher starts it (bots take the empty seats)."),
          {names: taken.join(", "), n: taken.length, seats: st.seats.length}));
      }
    } else if (st.status === "no_table") {
      setStatus(_("Waiting for your teacher to seat you."));
    } else if (st.result && st.result.bell) {
      setStatus(st.result.unfinished ?
        _("Time! Your teacher's bell stopped the game. It goes on the score sheet as it stands, marked unfinished.") :
        _("Time! Your teacher's bell stopped this part of the game: look at the board."), "over");
    } else if (st.result && st.result.stopped) {
      setStatus(_("Time! This part of the game is over: look at the board."), "over");
    } else if (st.result) {
      setStatus(_("Game over. Wait for your teacher to start the next round."), "over");
    } else if (st.bot_plays_you) {
      setStatus(_("A bot is playing for you."), "away");
    } else if (st.your_turn) {
      setStatus(_("Your move!"), "mine");
    } else {
      setStatus(fill(_("Waiting for {name}."), {name: st.to_move}));
    }
    var leave = $("leave");
    leave.hidden = st.status !== "playing" || !!st.result;
    leave.textContent = st.bot_plays_you ? _("Take my seat back") : _("Leave the table (a bot plays for you)");
    $("view").innerHTML = st.html || "";      // drawn by the server from this seat's observation only
    $("view").setAttribute("data-version", st.version === undefined ? "" : String(st.version));
    renderLog(st);
    if (shownError && st.your_turn === false) { showError(""); }
    renderResult();
    renderMoves();
    renderSeats(st);
    renderValues(st);
    renderClosed(st);
    applyConnection();
    renderQuestion();
  }

  $("join-form").addEventListener("submit", join);
  (function linkWins() {
    // opened with a join link (/join/CODE, a QR code): a seat this browser holds for another
    // session (last week's lesson) does not take over the page
    linkCode = codeFromAddress();
    var code = stored(CODE_KEY);
    if (linkCode && getToken() && code && code !== linkCode) { linkCode = ""; showJoin("", codeFromAddress()); return; }
    if (linkCode && getToken() && code === linkCode) { linkCode = ""; }
  }());
  (function () {     // a student who scrolls up to read stops the log following (a resize does not)
    var log = $("log"), touched = 0;
    ["wheel", "touchstart", "pointerdown", "keydown"].forEach(function (name) {
      log.addEventListener(name, function () { touched = Date.now(); }, {passive: true});
    });
    // the keyboard reads the log: arrows a line, Page Up/Down a screen, Home the first line, End
    // the latest (done here: a phone's browser may not scroll a focused list by keys by itself)
    log.addEventListener("keydown", function (ev) {
      var line = 24, page = Math.max(line, log.clientHeight - line);
      var steps = {ArrowDown: line, ArrowUp: -line, PageDown: page, PageUp: -page};
      if (ev.key === "Home") { log.scrollTop = 0; } else if (ev.key === "End") { log.scrollTop = log.scrollHeight; } else if (steps[ev.key]) { log.scrollTop += steps[ev.key]; } else { return; }
      ev.preventDefault();
      logFollows = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    });
    log.addEventListener("scroll", function () {
      if (Date.now() - touched < 2000) { logFollows = log.scrollHeight - log.scrollTop - log.clientHeight < 24; }
    }, {passive: true});
  }());
  $("leave").addEventListener("click", function () {
    if (!online) { return; }
    send({type: state && state.bot_plays_you ? "back" : "leave"});
  });
  // the page's words: the language of the session whose code it was opened with (or holds a seat
  // of), else the browser's; a seat's state then brings its session's language
  guessLanguage(codeFromAddress() || stored(CODE_KEY) || "", labels);
  if ($("join").hidden) { connect(); }
}());
