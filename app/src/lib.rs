//! keyplan's browser app. Placeholder until the foundation lands.
