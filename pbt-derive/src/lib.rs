//! pbt derives.
