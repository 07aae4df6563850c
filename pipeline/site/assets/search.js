// The search page: Pagefind's own interface over one index per document (listed in
// #search-indexes, each filtered as its game and document), started with the words of
// ?q= when the search box of another page sent them, and filtered to the document of
// ?document= when a document's page sent them (the filter can be cleared).
window.addEventListener("DOMContentLoaded", function () {
  var params = new URLSearchParams(window.location.search);
  var indexes = JSON.parse(document.getElementById("search-indexes").textContent);
  // Index folders are relative to the site's root, which is where this page's folder is.
  var root = new URL("../", window.location.href).pathname;
  var first = indexes[0] || { bundlePath: "pagefind/", mergeFilter: {} };
  var ui = new PagefindUI({
    element: "#search",
    bundlePath: root + first.bundlePath,
    mergeFilter: first.mergeFilter,
    mergeIndex: indexes.slice(1).map(function (index) {
      return { bundlePath: root + index.bundlePath, mergeFilter: index.mergeFilter };
    }),
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
  if (params.get("document")) {
    ui.triggerFilters({ document: [params.get("document")] });
  }
  var query = params.get("q");
  if (query) {
    ui.triggerSearch(query);
  }
});
