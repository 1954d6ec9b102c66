//! Checks of the repository itself: no conflict markers, doc links that resolve, feature selections, and imports that run one way.

mod conflict_markers;
mod doc_links;
mod features;
mod module_graph;
