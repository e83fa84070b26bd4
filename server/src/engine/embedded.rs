//! The dynoxide-rs engine embedded in this process, reached without a socket (issue 41, item 3).
//!
//! The SDK's client for it has an HTTP connector that hands each signed request to
//! [`dispatch`], which calls dynoxide's `Database` directly on a blocking thread and answers
//! as the engine's HTTP server would. Nothing listens on a port, so no web page can find the
//! engine, create tables in it or fill its memory: only this process's clients reach it.
//! dynoxide's own HTTP server answered any origin (`Access-Control-Allow-Origin: *`, preflights
//! echoed, any signature accepted), and its router is private, so it could not be put behind
//! the API's Host and Origin checks; its typed `Database` API is public and is what it serves.
//!
//! When a DeleteTable leaves the engine without tables, its database is compacted at once
//! ([`EmbeddedEngine::compact_if_empty`]): deleted tables' pages go back to the allocator.

use aws_sdk_dynamodb::config::http::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpClient, SharedHttpConnector, http_client_fn,
};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;
use dynoxide::{Database, DynoxideError};

use super::EngineError;

/// The address the embedded engine's client is configured with. Nothing resolves or connects
/// to it: the connector answers every request in-process (`.invalid` is reserved, RFC 2606).
pub const ADDRESS: &str = "http://embedded.keyplan.invalid";

/// The content type of DynamoDB's JSON protocol.
const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// The in-memory dynoxide-rs engine of this process.
#[derive(Clone)]
pub struct EmbeddedEngine {
    db: Database,
}

impl EmbeddedEngine {
    /// A new, empty in-memory engine.
    pub fn start() -> Result<EmbeddedEngine, EngineError> {
        let db = Database::memory().map_err(|e| EngineError::EmbeddedStart(e.to_string()))?;
        Ok(EmbeddedEngine { db })
    }

    /// An engine whose data is kept in the file at `path` (made when missing): SQLite under
    /// dynoxide, so a write it acknowledged survives the process being killed.
    pub fn open(path: &std::path::Path) -> Result<EmbeddedEngine, EngineError> {
        let db = Database::new(&path.to_string_lossy())
            .map_err(|e| EngineError::EmbeddedStart(format!("{}: {e}", path.display())))?;
        Ok(EmbeddedEngine { db })
    }

    /// Commits without waiting for the disk on each one (SQLite's `synchronous = NORMAL`,
    /// which in the WAL mode dynoxide uses never corrupts the file: a commit is lost only to a
    /// crash of the machine, not of the process). For kept run tables, a sample that can be
    /// run again; a run's thousands of single-item commits otherwise wait for the disk each.
    pub fn commit_without_sync(&self) -> Result<(), EngineError> {
        self.db
            .disable_bulk_loading()
            .map_err(|e| EngineError::EmbeddedStart(e.to_string()))
    }

    /// The HTTP client an SDK client reaches this engine through, without a socket.
    pub fn http_client(&self) -> SharedHttpClient {
        let connector = SharedHttpConnector::new(InProcess {
            engine: self.clone(),
        });
        http_client_fn(move |_, _| connector.clone())
    }

    /// Gives the memory of deleted tables back when the engine holds no table. The in-memory
    /// SQLite database keeps a deleted table's pages on its free list, so without this a
    /// server kept the few hundred MB its largest runs had written (issue 13). `VACUUM` of an
    /// empty database is quick; with tables present it would copy them all while holding the
    /// engine's lock, so then nothing is done and the DeleteTable that leaves it empty
    /// compacts it. Blocking: call it off the async threads.
    pub fn compact_if_empty(&self) -> Result<bool, String> {
        let tables = self
            .db
            .list_tables(dynoxide::actions::list_tables::ListTablesRequest::default())
            .map_err(|e| e.to_string())?;
        if !tables.table_names.is_empty() {
            return Ok(false);
        }
        self.db.vacuum().map_err(|e| e.to_string())?;
        Ok(true)
    }

    /// The engine's database, for tests that look inside it.
    #[cfg(test)]
    pub(crate) fn database(&self) -> &Database {
        &self.db
    }
}

impl std::fmt::Debug for EmbeddedEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedEngine").finish_non_exhaustive()
    }
}

/// The connector of [`EmbeddedEngine::http_client`].
#[derive(Debug)]
struct InProcess {
    engine: EmbeddedEngine,
}

impl HttpConnector for InProcess {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let engine = self.engine.clone();
        HttpConnectorFuture::new(async move {
            let target = request
                .headers()
                .get("x-amz-target")
                .unwrap_or_default()
                .to_string();
            // The SDK's DynamoDB requests are JSON held in memory, never streamed.
            let body = request.body().bytes().unwrap_or_default().to_vec();
            let (status, json) = tokio::task::spawn_blocking(move || {
                let answer = dispatch(&engine.db, &target, &body);
                if target.ends_with(".DeleteTable") && answer.0 == 200 {
                    match engine.compact_if_empty() {
                        Ok(compacted) => tracing::debug!(compacted, "embedded engine compacted"),
                        Err(e) => tracing::warn!("could not compact the embedded engine: {e}"),
                    }
                }
                answer
            })
            .await
            .map_err(|e| ConnectorError::other(e.into(), None))?;
            let status =
                StatusCode::try_from(status).map_err(|e| ConnectorError::other(e.into(), None))?;
            let mut response = HttpResponse::new(status, SdkBody::from(json));
            response.headers_mut().insert("content-type", CONTENT_TYPE);
            Ok(response)
        })
    }
}

/// One DynamoDB request to `db`, as its `X-Amz-Target` header and JSON body: the HTTP status
/// and JSON body of the answer, DynamoDB's error shape for a failure. Public so a test can
/// stand up an engine that answers as dynoxide-rs does except where it misbehaves on purpose.
pub fn dispatch(db: &Database, target: &str, body: &[u8]) -> (u16, String) {
    let operation = target
        .strip_prefix("DynamoDB_20120810.")
        .unwrap_or_default();
    match operate(db, operation, body) {
        Ok(json) => (200, json),
        Err(e) => (e.status_code(), e.to_json()),
    }
}

/// Reads a request body as `T`. A value dynoxide-rs refuses while reading it carries a marker
/// naming DynamoDB's error for it (`VALIDATION:`, `SERIALIZATION:`...), which its HTTP server
/// turns into that error and this does too (dynoxide's reader of the markers is private).
fn read<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, DynoxideError> {
    serde_json::from_slice(body).map_err(|e| {
        let message = e.to_string();
        let without_position = |m: &str| match m.rfind(" at line ") {
            Some(at) if m[at..].contains(" column ") => m[..at].to_string(),
            _ => m.to_string(),
        };
        const VALIDATION: [&str; 3] = ["VALIDATION_AS_READ:", "VALIDATION_REQUEST:", "VALIDATION:"];
        const SERIALIZATION: [&str; 2] = ["SERIALIZATION_AS_READ:", "SERIALIZATION:"];
        if let Some(rest) = VALIDATION.iter().find_map(|m| message.strip_prefix(m)) {
            DynoxideError::ValidationException(without_position(rest))
        } else if let Some(rest) = SERIALIZATION.iter().find_map(|m| message.strip_prefix(m)) {
            DynoxideError::SerializationException(without_position(rest))
        } else if ["missing field", "unknown variant", "invalid type: null"]
            .iter()
            .any(|m| message.contains(m))
        {
            DynoxideError::ValidationException(without_position(&message))
        } else {
            DynoxideError::SerializationException(without_position(&message))
        }
    })
}

fn write<T: serde::Serialize>(answer: &T) -> Result<String, DynoxideError> {
    serde_json::to_string(answer).map_err(|e| DynoxideError::InternalServerError(e.to_string()))
}

/// The operations dynoxide-rs serves, each a typed request to a `Database` method.
fn operate(db: &Database, operation: &str, body: &[u8]) -> Result<String, DynoxideError> {
    if operation == "TransactWriteItems" {
        let mut request: dynoxide::actions::transact_write_items::TransactWriteItemsRequest =
            read(body)?;
        // The SDK gives every transaction an idempotency token, and dynoxide keeps each token's
        // answer ten minutes (with an image size per action: ~1.7 KB a 25-delete transaction;
        // the live rooms' pruning makes hundreds a minute, issue 38). In this process no answer
        // is lost on the way back, and a transaction that failed was rolled back, so a token
        // guards against nothing here.
        request.client_request_token = None;
        return write(&db.transact_write_items(request)?);
    }
    macro_rules! operations {
        ($($name:literal => $method:ident),+ $(,)?) => {
            match operation {
                $($name => write(&db.$method(read(body)?)?),)+
                _ => Err(DynoxideError::ValidationException(format!(
                    "the embedded engine does not serve the operation `{operation}`"
                ))),
            }
        };
    }
    operations! {
        "CreateTable" => create_table,
        "DeleteTable" => delete_table,
        "DescribeTable" => describe_table,
        "ListTables" => list_tables,
        "UpdateTable" => update_table,
        "PutItem" => put_item,
        "GetItem" => get_item,
        "DeleteItem" => delete_item,
        "UpdateItem" => update_item,
        "Query" => query,
        "Scan" => scan,
        // Vector indexes (issue 40): exact nearest neighbours, ranked best first.
        "SearchVectors" => search_vectors,
        "BatchGetItem" => batch_get_item,
        "BatchWriteItem" => batch_write_item,
        "TransactWriteItems" => transact_write_items,
        "TransactGetItems" => transact_get_items,
        "UpdateTimeToLive" => update_time_to_live,
        "DescribeTimeToLive" => describe_time_to_live,
        "ExecuteStatement" => execute_statement,
        "ExecuteTransaction" => execute_transaction,
        "BatchExecuteStatement" => batch_execute_statement,
        "TagResource" => tag_resource,
        "UntagResource" => untag_resource,
        "ListTagsOfResource" => list_tags_of_resource,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn request<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> T {
        serde_json::from_value(json).unwrap()
    }

    fn create(db: &Database, name: &str) {
        db.create_table(request(serde_json::json!({
            "TableName": name,
            "KeySchema": [{ "AttributeName": "pk", "KeyType": "HASH" }],
            "AttributeDefinitions": [{ "AttributeName": "pk", "AttributeType": "S" }],
            "BillingMode": "PAY_PER_REQUEST",
        })))
        .unwrap();
    }

    /// Table `name` with 2,000 items of 1 KB.
    fn create_and_fill(db: &Database, name: &str) {
        create(db, name);
        for i in 0..2_000 {
            db.put_item(request(serde_json::json!({
                "TableName": name,
                "Item": { "pk": { "S": format!("item-{i}") }, "data": { "S": "x".repeat(1_000) } },
            })))
            .unwrap();
        }
    }

    // Issue 38: dynoxide kept every transaction's answer under the token the SDK gives it, ten
    // minutes each; the live rooms' pruning (hundreds of transactions a minute) held ~3 MB of
    // them after a 10-minute soak. A token reused for other writes is no longer refused.
    #[test]
    fn the_embedded_engine_keeps_no_answer_per_transaction_token() {
        let db = Database::memory().unwrap();
        create(&db, "tokens");
        let put = |key: &str| {
            serde_json::json!({
                "ClientRequestToken": "one-token",
                "TransactItems": [{ "Put": { "TableName": "tokens", "Item": { "pk": { "S": key } } } }],
            })
            .to_string()
        };
        let target = "DynamoDB_20120810.TransactWriteItems";
        assert_eq!(dispatch(&db, target, put("first").as_bytes()).0, 200);
        let (status, answer) = dispatch(&db, target, put("second").as_bytes());
        assert_eq!(status, 200, "{answer}");
    }

    // issue 13: a server kept the memory of every deleted run table (about 300 MB after 16
    // maximal runs): the in-memory database kept the pages on its free list.
    #[tokio::test]
    async fn the_embedded_engine_gives_deleted_tables_memory_back_once_it_holds_no_table() {
        let engine = EmbeddedEngine::start().unwrap();
        let db = engine.database();
        create(db, "kept");
        create_and_fill(db, "big");
        let size = || db.database_info().unwrap().size_bytes;
        let full = size();
        assert!(full > 2_000_000, "{full}");

        db.delete_table(request(serde_json::json!({ "TableName": "big" })))
            .unwrap();
        assert!(
            !engine.compact_if_empty().unwrap(),
            "a table is still there"
        );
        assert!(
            size() >= full,
            "nothing is compacted while a table is there"
        );

        db.delete_table(request(serde_json::json!({ "TableName": "kept" })))
            .unwrap();
        assert!(engine.compact_if_empty().unwrap());
        assert!(size() < full / 10, "{} of {full} bytes kept", size());
    }

    // issue 41: 600 puts through the engine's port took a server from 66 to 369 MB, kept
    // after the table was deleted; a DeleteTable that empties the engine now compacts it.
    #[tokio::test]
    async fn a_delete_table_through_the_client_that_empties_the_engine_gives_its_memory_back() {
        let engine = EmbeddedEngine::start().unwrap();
        let client = super::super::Engine::embedded(&engine).client;
        let db = engine.database();
        create_and_fill(db, "big");
        let size = || db.database_info().unwrap().size_bytes;
        let full = size();
        client
            .delete_table()
            .table_name("big")
            .send()
            .await
            .unwrap();
        assert!(size() < full / 10, "{} of {full} bytes kept", size());
    }

    #[tokio::test]
    async fn the_client_reaches_the_engine_without_a_socket_and_reads_its_errors() {
        let engine = EmbeddedEngine::start().unwrap();
        let client = super::super::Engine::embedded(&engine).client;
        let listed = client.list_tables().send().await.unwrap();
        assert!(listed.table_names().is_empty());
        let err = client
            .describe_table()
            .table_name("nope")
            .send()
            .await
            .unwrap_err();
        assert_eq!(
            aws_sdk_dynamodb::error::ProvideErrorMetadata::code(&err),
            Some("ResourceNotFoundException")
        );
    }
}
