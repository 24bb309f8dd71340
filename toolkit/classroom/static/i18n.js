/* The pages' words in the session's language: _("...") looks a message up in the catalog the
 * server sends (GET /api/catalog?lang=xx: the toolkit's gettext catalog, toolkit/locale), and
 * falls back to the English source. Marked messages are extracted with the Python ones
 * (python -m toolkit.core.catalogs). */
(function () {
  "use strict";
  var messages = {}, lang = "en", waiting = [];
  window._ = function (text) { return Object.prototype.hasOwnProperty.call(messages, text) ? messages[text] : text; };
  window.fill = function (text, values) {        // "{name} won" with {name: "Ana"}
    return text.replace(/\{(\w+)\}/g, function (all, key) { return values[key] === undefined ? all : String(values[key]); });
  };
  window.useLanguage = function (code, then) {
    if (!code || code === lang) { if (then) { then(); } return; }
    lang = code;
    document.documentElement.lang = code;
    waiting.push(then);
    fetch("/api/catalog?lang=" + encodeURIComponent(code)).then(function (r) { return r.json(); }).then(function (data) {
      messages = data.messages || {};
    }).catch(function () { messages = {}; }).then(function () {
      var calls = waiting; waiting = [];
      calls.forEach(function (f) { if (f) { f(); } });
    });
  };
}());
