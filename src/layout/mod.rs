//! Node positions: the fat-tree layout of the thesis, and more.
