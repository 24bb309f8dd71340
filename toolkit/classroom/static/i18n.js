/* The pages' words in the session's language: _("...") looks a message up in the catalog the
 * server sends (GET /api/catalog?lang=xx: the toolkit's gettext catalog, toolkit/locale), and
 * falls back to the English source. Marked messages are extracted with the Python ones
 * (python -m toolkit.core.catalogs); N_("...") marks a message in a table, translated where it
 * is shown with _(). */
(function () {
  "use strict";
  var messages = {}, lang = "en", waiting = [], loading = 0;
  window._ = function (text) { return Object.prototype.hasOwnProperty.call(messages, text) ? messages[text] : text; };
  window.N_ = function (text) { return text; };
  window.fill = function (text, values) {        // "{name} won" with {name: "Ana"}
    return text.replace(/\{(\w+)\}/g, function (all, key) { return values[key] === undefined ? all : String(values[key]); });
  };
  function load(query, then) {
    var mine = ++loading;
    waiting.push(then);
    fetch("/api/catalog?" + query).then(function (r) { return r.json(); }).then(function (data) {
      if (mine !== loading) { return; }          // a later language won
      messages = data.messages || {};
      lang = data.lang || "en";
      document.documentElement.lang = lang;
    }).catch(function () { if (mine === loading) { messages = {}; } }).then(function () {
      if (mine !== loading) { return; }
      var calls = waiting; waiting = [];
      calls.forEach(function (f) { if (f) { f(); } });
    });
  }
  /* Speak ``code`` (the session's language); ``then`` runs once its messages are here. */
  window.useLanguage = function (code, then) {
    if (!code || code === lang) { if (then) { then(); } return; }
    lang = code;
    load("lang=" + encodeURIComponent(code), then);
  };
  /* Before joining: the language of the session whose join code the page was opened with, else
   * the browser's (the server reads its Accept-Language). */
  window.guessLanguage = function (joinCode, then) {
    lang = "";                                   // unknown until the answer: a session's language asked meanwhile wins
    load(joinCode ? "code=" + encodeURIComponent(joinCode) : "", then);
  };
}());
