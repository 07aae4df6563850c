// The search page: Pagefind's own interface, started with the words of ?q= when the
// search box of another page sent them.
window.addEventListener("DOMContentLoaded", function () {
  var ui = new PagefindUI({ element: "#search", showSubResults: true, showImages: false });
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) {
    ui.triggerSearch(query);
  }
});
