//! Sevenbag's bot: finds every reachable placement of a piece, scores boards in the spirit of
//! El-Tetris plus versus terms, and searches the next queue to choose inputs frame by frame.
#![deny(missing_docs)]
