//! KP031: a provisioned table or one of its GSIs is given less capacity than the patterns ask
//! at their peak (issue 40 item 2). The loads are the cost report's own ([`crate::cost`]: one
//! capacity model, the units of each request and each GSI's share of them), measured on the
//! sample with KP014's ([`super::measure`]); with auto scaling the peak is judged against its
//! maximum. A partition over one partition's 3,000 read or 1,000 write units a second throttles
//! whatever the table is given, on-demand too: that is KP014's, which this does not repeat.
//!
//! A request over a table's or a GSI's provisioned capacity is throttled
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/troubleshooting-throttling-diagnostics.html>);
//! a GSI short of write capacity throttles the table's writes as well, one short of read
//! capacity only its own Queries
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations>).

use super::Findings;
use crate::answer::{Place, Severity};
use crate::cost::{Dimension, Throttle};
use crate::model::Design;

/// KP031 for every table and GSI of `throttles` (the cost report's), partitions left to KP014.
pub(super) fn throttled(design: &Design, throttles: &[Throttle], out: &mut Findings) {
    for throttle in throttles.iter().filter(|t| t.partition.is_none()) {
        if design.table(&throttle.table).is_none() {
            continue;
        }
        let (place, what) = match &throttle.index {
            Some(index) => (
                Place::gsi(&throttle.table, index),
                format!("GSI `{index}` of table `{}`", throttle.table),
            ),
            None => (
                Place::Table(throttle.table.clone()),
                format!("table `{}`", throttle.table),
            ),
        };
        let effect = match (&throttle.index, throttle.dimension) {
            (Some(_), Dimension::Write) => {
                "the writes that land in it are throttled, and the table's writes with them: a GSI short of write capacity holds back its table"
            }
            (Some(_), Dimension::Read) => {
                "its Queries are throttled (the table's own reads are not)"
            }
            (None, _) => "requests past it are throttled (ProvisionedThroughputExceededException)",
        };
        let unit = match throttle.dimension {
            Dimension::Read => "RCU",
            Dimension::Write => "WCU",
        };
        let raise = if throttle.auto_scaled {
            "its auto scaling maximum"
        } else {
            "its capacity"
        };
        out.push(
            "KP031",
            Severity::Warning,
            place,
            format!(
                "{what} has {} but the patterns {} {} units a second at their peak, {} over ({:.1}x), from {}: {effect}; raise {raise} to at least {} {unit}, or bill the table on demand",
                throttle.capacity_words(),
                throttle.dimension.word(),
                crate::pricing::grouped(throttle.peak, 1),
                crate::pricing::grouped(throttle.peak - throttle.capacity, 1),
                throttle.peak / throttle.capacity,
                throttle.patterns_words(),
                throttle.peak.ceil()
            ),
        );
    }
}
