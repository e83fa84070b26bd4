//! Opening other tools' files in a real browser (issue 15): a CloudFormation template dropped
//! on the app and a NoSQL Workbench model chosen in the file picker each open as a new design,
//! and the toast says what was read. The picker offers every format core reads.
//!
//! What each format holds is tested in core (`import::tests`, the corpus round trips); this
//! checks what a user sees.

mod browser;

use browser::{Browser, eventually, prerequisites, start_server};
use keyplan_core::export::{Format as Export, export};

/// The example design in `to`, and what core reads back from it.
fn exported(to: Export) -> (String, keyplan_core::import::Imported) {
    let design = keyplan_core::examples::all()
        .into_iter()
        .find(|(slug, _)| *slug == "order-management")
        .expect("the order-management example")
        .1;
    let text = export(&design, to).expect("the example exports");
    let back = keyplan_core::import::detect_and_import(&text).expect("the export imports");
    (text, back)
}

async fn entity_names(b: &Browser) -> Vec<String> {
    b.texts("[data-testid=entity-name]").await
}

#[tokio::test]
async fn a_dropped_cloudformation_template_and_a_chosen_workbench_model_open_and_say_what_they_are()
{
    let Some(dist) = prerequisites() else { return };
    let server = start_server(&dist);
    let b = Browser::open().await;
    b.visit(&server.url).await;

    // The picker offers the formats core reads, not only JSON.
    let accept = b
        .js("return document.querySelector('[data-testid=file-input]').accept;")
        .await;
    let accept = accept.as_str().expect("the accept attribute");
    for extension in [".json", ".yaml", ".yml", ".tf"] {
        assert!(
            accept.split(',').any(|a| a == extension),
            "{extension}: {accept}"
        );
    }

    let (template, imported) = exported(Export::CloudFormationYaml);
    b.drop_file("stack.yaml", &template).await;
    let toast = b.toast_containing("Opened stack.yaml").await;
    assert_eq!(
        toast.lines().next().unwrap_or_default(),
        format!(
            "Opened stack.yaml as a CloudFormation template: {} tables, no entities, with {} notes:",
            imported.design.tables.len(),
            imported.notes.len()
        ),
        "{toast}"
    );
    assert!(toast.contains("no entities or access patterns"), "{toast}");
    eventually("the template's design has no entity cards", || async {
        entity_names(&b).await.is_empty()
    })
    .await;

    let (model, imported) = exported(Export::NosqlWorkbench);
    let design = imported.design;
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("model.json");
    std::fs::write(&file, &model).expect("write the model");
    b.choose_file(&file).await;
    let toast = b.toast_containing("Opened model.json").await;
    assert!(
        toast.starts_with(&format!(
            "Opened model.json as a NoSQL Workbench model: {} tables, {} entities",
            design.tables.len(),
            design.entities.len()
        )),
        "{toast}"
    );
    let expected: Vec<String> = design.entities.iter().map(|e| e.name.clone()).collect();
    eventually("the model's entities are on the canvas", || async {
        entity_names(&b).await == expected
    })
    .await;
}
