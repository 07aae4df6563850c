// The search page: Pagefind's own interface, started with the words of ?q= when the
// search box of another page sent them, and filtered to the game and document of ?game=
// and ?document= when a document's page sent them (the filters can be cleared).
window.addEventListener("DOMContentLoaded", function () {
  var params = new URLSearchParams(window.location.search);
  var ui = new PagefindUI({
    element: "#search",
    showSubResults: true,
    showImages: false,
    processResult: function (result) {
      // Each result says which game and document it comes from.
      if (result.meta && result.meta.source) {
        result.meta.title = result.meta.title + " — " + result.meta.source;
      }
      return result;
    }
  });
  var filters = {};
  if (params.get("game")) {
    filters.game = [params.get("game")];
  }
  if (params.get("document")) {
    filters.document = [params.get("document")];
  }
  if (Object.keys(filters).length) {
    ui.triggerFilters(filters);
  }
  var query = params.get("q");
  if (query) {
    ui.triggerSearch(query);
  }
});
