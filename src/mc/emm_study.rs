//! Wilson, Parker & Nau (2009), Figs. 3-6 (in progress).
