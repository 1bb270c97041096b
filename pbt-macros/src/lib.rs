//! pbt macros.
