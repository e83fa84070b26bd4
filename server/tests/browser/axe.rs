//! axe-core in the page (issue 12): the accessibility checks the tests run on every view and
//! dialog, reporting the serious and critical violations.

use super::{Browser, workspace};

impl Browser {
    /// Injects axe-core (from `.tools/node_modules`) into the open page; `false` when it is not
    /// installed (the check skips), and with `KEYPLAN_REQUIRE_TOOLS=1` the test fails instead.
    pub async fn inject_axe(&self) -> bool {
        let axe_js = workspace().join(".tools/node_modules/axe-core/axe.min.js");
        let Ok(source) = std::fs::read_to_string(&axe_js) else {
            if std::env::var("KEYPLAN_REQUIRE_TOOLS").as_deref() == Ok("1") {
                panic!("{} is missing: run scripts/setup.sh", axe_js.display());
            }
            eprintln!("skipped: {} is missing", axe_js.display());
            return false;
        };
        self.client
            .execute(&format!("{source}\nreturn 0;"), Vec::new())
            .await
            .expect("inject axe-core");
        true
    }

    /// Shows the page in the `light` or `dark` colour scheme, as a system set to it does.
    pub async fn prefer_color_scheme(&self, scheme: &str) {
        self.cdp(
            "Emulation.setEmulatedMedia",
            serde_json::json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
        )
        .await;
    }

    /// axe-core's serious and critical violations on the page once its transitions have ended
    /// (a card fading back from dimmed is not its colour), one line each, led by `view`.
    pub async fn axe(&self, view: &str) -> Vec<String> {
        let v = self.js_async(
            "const done = arguments[arguments.length - 1];\
             const frame = () => new Promise(r => requestAnimationFrame(() => r()));\
             const ended = () => Promise.all(document.getAnimations()\
               .filter(a => a.effect?.getTiming().iterations !== Infinity)\
               .map(a => a.finished.catch(() => 0)));\
             frame().then(ended)\
             .then(() => axe.run(document, { resultTypes: ['violations'] })).then(r => done(\
               r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')\
                 .map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(' | ')\
                   + ' (' + (v.nodes[0].any.concat(v.nodes[0].all)[0]?.message ?? '') + ')')\
             ), e => done(['axe failed: ' + e]));",
            Vec::new(),
        )
        .await;
        v.as_array()
            .expect("a list")
            .iter()
            .map(|s| format!("{view}: {}", s.as_str().unwrap_or_default()))
            .collect()
    }
}
