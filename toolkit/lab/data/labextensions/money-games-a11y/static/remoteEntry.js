/* The money-games course's accessibility fixes for ipywidgets (issue 36), as a prebuilt
 * JupyterLab extension that JupyterLab and app mode (Voila) both load from JUPYTER_PATH
 * (toolkit/lab/data/labextensions, put first by `python -m toolkit.lab` and binder/start).
 *
 * Written by hand, without a build step: a module-federation container (`init`, `get`) whose
 * one module is a JupyterLab plugin. It needs nothing from the shared scope.
 *
 * What it does, on every page, for the widgets of any lesson or notebook:
 *  - names slider handles (ipywidgets' sliders are noUiSlider handles, role="slider", with no
 *    accessible name: axe's aria-input-field-name, serious): `aria-labelledby` the slider's own
 *    description; a range slider's two handles are "<description> (from)" and "(to)", in the
 *    page's language;
 *  - lays out choice options (RadioButtons) so that any length wraps inside its own label with
 *    its radio button beside the first line (each label was 20 px tall: a long option printed
 *    over the next one and lost its radio, issue 34);
 *  - gives every widget control a visible keyboard focus ring (WCAG 2.4.7) that is at least
 *    3:1 against the page;
 *  - a chart is one image for a screen reader, named by its title and described by the text
 *    alternative under it (toolkit/core/chart_text.py), instead of its tick labels one by one;
 *  - links in text are underlined (told apart by more than colour, WCAG 1.4.1);
 *  - reflow at 320-390 px (WCAG 1.4.10): text outputs wrap between words (JupyterLab's
 *    `word-break: break-all` cut them in the middle), and an equation wider than the screen
 *    scrolls in its own box, which takes the keyboard's focus so that a keyboard can scroll it.
 */
(function () {
  "use strict";
  var NAME = "money-games-a11y";
  var STYLE_ID = "money-games-a11y-style";
  var WORDS = {
    en: { from: "from", to: "to", collapse: "Collapse the section", expand: "Expand the section" },
    it: { from: "da", to: "a", collapse: "Chiudi la sezione", expand: "Apri la sezione" }
  };
  var CSS = [
    "/* money-games-a11y: choice options wrap inside their own label, radio beside the first line */",
    ".widget-radio-box, .jupyter-widget-radio-box { min-width: 0; height: auto; }",
    ".widget-radio-box label, .jupyter-widget-radio-box label {",
    "  display: flex; align-items: flex-start; height: auto; min-height: var(--jp-widgets-radio-item-height);",
    "  line-height: 1.4; padding: 1px 0; white-space: normal; overflow-wrap: break-word; min-width: 0; }",
    ".widget-radio-box input, .jupyter-widget-radio-box input {",
    "  float: none; order: -1; flex: 0 0 auto; width: 24px; height: 24px; margin: 0 0.5em 0 1px; }",
    "/* (a radio button is a touch target of 24 px at least: WCAG 2.5.8, axe's target-size) */",
    ".widget-radio, .jupyter-widget-radio { height: auto; }",
    "/* a visible keyboard focus on every control (2 px, dark blue: 3:1 or more on white and grey) */",
    ".jupyter-widgets :focus-visible, .jupyter-widgets .noUi-handle:focus {",
    "  outline: 2px solid #1a4f9c; outline-offset: 2px; }",
    ".jupyter-widgets button:focus-visible { outline-offset: 1px; }",
    "/* text outputs wrap between words, not inside them (JupyterLab's break-all cut words on a phone) */",
    ".jp-RenderedText pre { word-break: normal; overflow-wrap: break-word; }",
    "/* an equation wider than the screen scrolls in its own box (reachable by keyboard: see",
    "   markScrollers), instead of being cut at the page's right edge */",
    "mjx-container[display='true'], .jp-RenderedLatex > mjx-container {",
    "  display: block; max-width: 100%; overflow-x: auto; overflow-y: hidden; padding: 8px 0; }",
    "/* a formula output (sympy's LaTeX) is as tall as its formula: it was a box of one line whose",
    "   tall braces scrolled up and down inside it (and could not be reached by keyboard) */",
    ".jp-RenderedLatex { overflow: visible; }",
    ".jp-RenderedLatex, .jp-RenderedMarkdown { min-width: 0; }",
    ".mg-scroll:focus-visible { outline: 2px solid #1a4f9c; outline-offset: 2px; }",
    "/* a link in a paragraph is told from its words by more than its colour (WCAG 1.4.1) */",
    ".jp-RenderedHTMLCommon a, .jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited,",
    ".widget-html-content a, .widget-html-content a:link, .widget-html-content a:visited { text-decoration: underline; }"
  ].join("\n");

  function language(el) {
    var holder = el.closest("[lang]");
    var lang = ((holder && holder.getAttribute("lang")) || document.documentElement.lang || "en").slice(0, 2);
    return WORDS[lang] || WORDS.en;
  }

  var counter = 0;
  function idOf(el) {
    if (!el.id) {
      counter += 1;
      el.id = "mg-a11y-" + counter + "-" + Math.random().toString(36).slice(2, 8);
    }
    return el.id;
  }

  function nameHandles(root) {
    var handles = root.querySelectorAll(".noUi-handle[role='slider']:not([data-mg-named])");
    handles.forEach(function (handle) {
      var slider = handle.closest(".widget-slider, .jupyter-widget-slider, .widget-hslider, .widget-vslider");
      var label = slider && slider.querySelector(":scope > .widget-label, :scope > label");
      if (!label || !label.textContent.trim()) return; // no description: the tests report it
      if (!handle.hasAttribute("aria-label") && !handle.hasAttribute("aria-labelledby")) {
        var all = slider.querySelectorAll(".noUi-handle[role='slider']");
        if (all.length > 1) {
          var words = language(slider);
          var which = handle.classList.contains("noUi-handle-upper") ? words.to : words.from;
          handle.setAttribute("aria-label", label.textContent.trim() + " (" + which + ")");
        } else {
          handle.setAttribute("aria-labelledby", idOf(label));
        }
      }
      handle.setAttribute("data-mg-named", "");
    });
  }

  /* A box that scrolls sideways (an equation wider than a phone) takes the keyboard's focus, so
   * that a keyboard can scroll it (WCAG 2.1.1; axe's scrollable-region-focusable, serious). */
  function markScrollers(root) {
    var boxes = root.querySelectorAll("mjx-container[display='true'], .jp-RenderedLatex > mjx-container, " +
                                      ".jp-RenderedLatex, .jp-RenderedMarkdown, " +
                                      ".jp-RenderedHTMLCommon, .jp-OutputArea-output");
    boxes.forEach(function (box) {
      // (as axe-core counts it: any overflow, a pixel included, makes a box scroll)
      var style = getComputedStyle(box);
      var scrolls = (box.scrollWidth > box.clientWidth && /(auto|scroll)/.test(style.overflowX)) ||
                    (box.scrollHeight > box.clientHeight && /(auto|scroll)/.test(style.overflowY));
      var tab = box.getAttribute("tabindex");
      if (scrolls && (tab === null || tab === "-1")) {
        box.setAttribute("tabindex", "0");
        box.classList.add("mg-scroll");
      } else if (!scrolls && box.classList.contains("mg-scroll")) {
        box.removeAttribute("tabindex");
        box.classList.remove("mg-scroll");
      }
    });
  }

  /* JupyterLab's button that folds a heading's section has no name (axe's button-name,
   * critical): it is named by what it does and the heading it folds. */
  function nameHeadingButtons(root) {
    var buttons = root.querySelectorAll("button.jp-collapseHeadingButton");
    buttons.forEach(function (b) {
      var cell = b.closest(".jp-Cell");
      var heading = cell && cell.querySelector("h1, h2, h3, h4, h5, h6");
      var words = language(b);
      var folded = cell && cell.classList.contains("jp-mod-collapsed") || b.classList.contains("jp-mod-collapsed");
      var name = (folded ? words.expand : words.collapse) +
                 (heading ? ": " + heading.textContent.replace(/\u00b6/g, "").trim() : "");
      if (b.getAttribute("aria-label") !== name) b.setAttribute("aria-label", name);
    });
  }

  /* A chart (plotly's SVG: a screen reader read its tick labels one by one) is one image named by
   * its title and described by the text alternative the charts helper puts under it
   * (toolkit/core/chart_text.py): the sentence, then its numbers as a table. */
  function nameCharts(root) {
    var plots = root.querySelectorAll(".jp-RenderedPlotly");
    plots.forEach(function (plot) {
      var child = plot.closest(".jp-OutputArea-child") || plot.parentElement;
      var next = child && child.nextElementSibling;
      var text = next && next.querySelector(".mg-chart-text > p");
      if (!text) return;
      var title = plot.querySelector(".gtitle");
      var name = (title && title.textContent.trim()) || text.textContent.trim();
      if (plot.getAttribute("aria-label") !== name) plot.setAttribute("aria-label", name);
      if (plot.getAttribute("role") !== "img") plot.setAttribute("role", "img");
      var id = idOf(text);
      if (plot.getAttribute("aria-describedby") !== id) plot.setAttribute("aria-describedby", id);
    });
  }

  function start() {
    if (window.__moneyGamesA11y) return;
    window.__moneyGamesA11y = true;
    if (!document.getElementById(STYLE_ID)) {
      var style = document.createElement("style");
      style.id = STYLE_ID;
      style.textContent = CSS;
      document.head.appendChild(style);
    }
    var queued = false;
    var run = function () {
      queued = false;
      nameHandles(document);
      nameHeadingButtons(document);
      markScrollers(document);
      nameCharts(document);
    };
    var later = function () {
      if (!queued) {
        queued = true;
        window.requestAnimationFrame(run);
      }
    };
    new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", later);
    // (a box also starts to scroll without a change to the page's tree: MathJax's fonts load,
    // a table's column widens; look again every second)
    window.setInterval(later, 1000);
    // the browser tests run this before axe-core reads the page, so that they read it as it
    // stands a second later, not in the middle of a redraw
    // (once the page's fonts are in: a box scrolls only when its glyphs have their width)
    if (document.fonts) document.fonts.addEventListener("loadingdone", later);
    window.__moneyGamesA11ySettle = function () {
      var fonts = document.fonts ? document.fonts.ready : Promise.resolve();
      return fonts.then(function () {
        return new Promise(function (done) { window.requestAnimationFrame(function () { run(); done(); }); });
      });
    };
    run();
  }

  var plugin = {
    id: NAME + ":plugin",
    description: "Accessibility fixes for the course's widgets (named sliders, wrapping choices, focus).",
    autoStart: true,
    activate: function () { start(); }
  };
  var container = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      if (module !== "./extension") return Promise.reject(new Error(NAME + ": no module " + module));
      return Promise.resolve(function () { return { __esModule: true, "default": [plugin] }; });
    }
  };
  var registry = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  registry[NAME] = container;
})();
