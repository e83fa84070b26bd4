//! A read given as a PartiQL statement, run as ExecuteStatement (issue 40): the statement
//! keyplan maps it to on the run's table, its `?` bound to the values the evaluation chose,
//! paged by NextToken to the end; the caller compares the items with core's prediction.

use aws_sdk_dynamodb::types::AttributeValue as Sdk;
use keyplan_core::Item;

use super::convert::{item_from_sdk, to_sdk};
use super::error::{RunError, run_error};
use super::plan::{ReadCheck, RunStatement};
use crate::engine::Engine;
use crate::runner::paging::MAX_EMPTY_PAGES;

/// The items `statement` returns on `table` (the run's name), and the requests sent: at most
/// twice the pages the predicted items need, plus [`MAX_EMPTY_PAGES`], and a NextToken never
/// handed back as it was sent.
pub async fn execute(
    engine: &Engine,
    table: &str,
    check: &ReadCheck,
    statement: &RunStatement,
    predicted_items: usize,
) -> Result<(Vec<Item>, usize), RunError> {
    let text = statement.text(table);
    let parameters = statement
        .parameters
        .iter()
        .map(|v| Ok(to_sdk(v)?))
        .collect::<Result<Vec<Sdk>, RunError>>()?;
    let per_page = check.page_size.map_or(1, |n| n.max(1) as usize);
    let max_requests = (predicted_items / per_page + 1) as u64 * 2 + MAX_EMPTY_PAGES;
    let what = format!("run the statement `{text}`");
    let mut items = Vec::new();
    let mut token: Option<String> = None;
    let mut requests = 0usize;
    loop {
        if requests as u64 >= max_requests {
            return Err(RunError::Endless {
                engine: engine.name.clone(),
                what,
                detail: format!("still paging after {requests} requests"),
            });
        }
        let out = engine
            .client
            .execute_statement()
            .statement(&text)
            .set_parameters((!parameters.is_empty()).then(|| parameters.clone()))
            .consistent_read(check.consistent)
            .set_limit(check.page_size.map(|n| n.min(i32::MAX as u32) as i32))
            .set_next_token(token.clone())
            .send()
            .await
            .map_err(|e| run_error(engine, &what, &e))?;
        requests += 1;
        items.extend(out.items().iter().map(item_from_sdk));
        match out.next_token().filter(|t| !t.is_empty()) {
            Some(next) if token.as_deref() == Some(next) => {
                return Err(RunError::Endless {
                    engine: engine.name.clone(),
                    what,
                    detail: "it handed back the NextToken it was sent".to_string(),
                });
            }
            Some(next) => token = Some(next.to_string()),
            None => break,
        }
    }
    Ok((items, requests))
}
