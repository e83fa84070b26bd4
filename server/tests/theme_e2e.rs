//! The theme switch (issue 43, item 6), in a real browser: light, dark, or as the operating
//! system says, chosen in the top bar, remembered across a reload, and every view readable in
//! each (axe-core's contrast checks, and screenshots in `test-output/`).

mod browser;

use browser::{Browser, app_test, eventually};

/// How light the page's background is, 0 (black) to 1 (white).
async fn lightness(b: &Browser) -> f64 {
    b.js(
        "const m = getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g).map(Number);\
          return (0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]) / 255;",
    )
    .await
    .as_f64()
    .unwrap_or(-1.0)
}

async fn shows(b: &Browser, scheme: &str) {
    eventually(&format!("the page is {scheme}"), || async {
        let l = lightness(b).await;
        if scheme == "dark" {
            (0.0..0.2).contains(&l)
        } else {
            l > 0.8
        }
    })
    .await;
}

// issue 43, item 6: the app followed the system's scheme, with no way to choose another.
#[test]
fn the_theme_is_chosen_beside_the_os_setting_and_remembered() {
    app_test(async |b| {
        b.prefer_color_scheme("light").await;
        shows(b, "light").await;
        assert_eq!(b.value("[data-testid=theme]").await, "system");

        b.select("[data-testid=theme]", "dark").await;
        shows(b, "dark").await;
        b.client.refresh().await.expect("reload");
        b.find("[data-entity=Order] .card-head").await;
        shows(b, "dark").await;
        assert_eq!(b.value("[data-testid=theme]").await, "dark");

        b.prefer_color_scheme("dark").await;
        b.select("[data-testid=theme]", "light").await;
        shows(b, "light").await;

        b.select("[data-testid=theme]", "system").await;
        shows(b, "dark").await;
        b.prefer_color_scheme("light").await;
        shows(b, "light").await;
    });
}

// issue 43, item 6: each view read in the scheme chosen against the system's.
#[test]
fn every_view_is_readable_in_the_chosen_theme() {
    app_test(async |b| {
        b.client.set_window_size(1440, 900).await.expect("resize");
        let axe = b.inject_axe().await;
        for (theme, system) in [("dark", "light"), ("light", "dark")] {
            b.prefer_color_scheme(system).await;
            b.select("[data-testid=theme]", theme).await;
            shows(b, theme).await;
            for tab in ["canvas", "data", "cost", "run", "migrate"] {
                b.click(&format!("[data-testid=tab-{tab}]")).await;
                b.find(&format!("[data-testid=tab-{tab}][aria-selected=true]"))
                    .await;
                b.mouse_click("[data-testid=findings-tab]").await;
                b.screenshot(&format!("theme-{theme}-{tab}")).await;
                if axe {
                    let found = b.axe(&format!("{theme} {tab}")).await;
                    assert!(found.is_empty(), "{found:#?}");
                }
            }
        }
    });
}
