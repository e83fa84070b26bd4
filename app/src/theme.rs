//! The theme (issue 43, item 6): light, dark, or as the operating system says (the default),
//! chosen in the top bar and remembered in localStorage (`keyplan.theme`). The choice is the
//! root element's `data-theme`; style/app.css's colours follow it (light-dark() with
//! color-scheme), so nothing here knows a colour.

use leptos::prelude::*;

/// What the user chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// As the operating system says (prefers-color-scheme).
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// Its name, stored and used as the select's value and as `data-theme`.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The theme named `name`; anything else (an old or hand-edited value) is the system's.
    pub fn parse(name: &str) -> Theme {
        Theme::ALL
            .into_iter()
            .find(|t| t.as_str() == name)
            .unwrap_or_default()
    }

    fn label(self) -> &'static str {
        match self {
            Theme::System => "OS",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }
}

/// The theme remembered, or the system's.
pub fn remembered() -> Theme {
    crate::storage::theme().map_or_else(Theme::default, |t| Theme::parse(&t))
}

/// Shows the page in `theme`: the root element's `data-theme`, absent for the system's.
pub fn show(theme: Theme) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match theme {
        Theme::System => root.remove_attribute("data-theme"),
        other => root.set_attribute("data-theme", other.as_str()),
    };
}

/// The theme's select, for the top bar: the choice is shown at once and remembered.
#[component]
pub fn ThemeSwitch() -> impl IntoView {
    let chosen = RwSignal::new(remembered());
    view! {
        <label class="theme-switch" title="Theme: light, dark, or as the operating system says">
            <span class="theme-icon" aria-hidden="true">"◐"</span>
            <select
                class="input"
                data-testid="theme"
                aria-label="Theme"
                prop:value=move || chosen.get().as_str()
                on:change=move |ev| {
                    let theme = Theme::parse(&event_target_value(&ev));
                    chosen.set(theme);
                    show(theme);
                    crate::storage::set_theme(theme.as_str());
                }
            >
                {Theme::ALL.into_iter().map(|t| view! {
                    <option value=t.as_str() selected=move || chosen.get() == t>{t.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_theme_reads_back_by_its_name_and_anything_else_is_the_systems() {
        for t in Theme::ALL {
            assert_eq!(Theme::parse(t.as_str()), t);
        }
        assert_eq!(Theme::parse("sepia"), Theme::System);
        assert_eq!(Theme::parse(""), Theme::System);
    }
}
