// Runs before uPlot, which formats numbers with `new Intl.NumberFormat(navigator.language)` as it loads: a language
// tag Intl refuses (Chromium reports `en-US@posix` under LANG=C.UTF-8) would throw there and leave every chart blank.
// Such a tag is replaced by its usable part (`en-US`), else by `en-US`; a valid one is left as it is.
(function sanitiseLanguage() {
  const valid = (tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length > 0;
    } catch {
      return false;
    }
  };
  const given = navigator.language;
  if (valid(given)) return;
  const trimmed = String(given).split(/[@.]/)[0].replace(/_/g, '-');
  const language = valid(trimmed) && trimmed !== '' ? trimmed : 'en-US';
  Object.defineProperty(navigator, 'language', { value: language, configurable: true });
  Object.defineProperty(navigator, 'languages', { value: [language], configurable: true });
})();
