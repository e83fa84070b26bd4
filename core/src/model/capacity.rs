//! A table's provisioned capacity edited one number at a time, as the table inspector edits it
//! (issue 40): the units of a dimension of the table or of one of its GSIs, and one bound of a
//! dimension's auto scaling. Each gives a new [`Billing`] that the app sends in a `SetTable`
//! edit, so undo and live co-editing take it as any other edit. Nothing here knows how it is
//! shown; a bound AWS would refuse is refused here, saying why.

use super::{AutoScaling, Billing, Capacity, Dimension, Scaling};

/// The least and most target utilisation Application Auto Scaling takes for DynamoDB, in
/// percent (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html>:
/// "target utilization ... between 20 and 90 percent").
pub const TARGET_RANGE: std::ops::RangeInclusive<f64> = 20.0..=90.0;

/// One bound of a dimension's auto scaling.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    Min(u64),
    Max(u64),
    /// The target utilisation in percent; `None`: AWS's default.
    Target(Option<f64>),
}

impl Capacity {
    fn units(&self, dimension: Dimension) -> u64 {
        match dimension {
            Dimension::Read => self.read,
            Dimension::Write => self.write,
        }
    }

    fn units_mut(&mut self, dimension: Dimension) -> &mut u64 {
        match dimension {
            Dimension::Read => &mut self.read,
            Dimension::Write => &mut self.write,
        }
    }
}

impl AutoScaling {
    /// The bounds of `dimension`, if it scales.
    pub fn of(&self, dimension: Dimension) -> Option<Scaling> {
        match dimension {
            Dimension::Read => self.read,
            Dimension::Write => self.write,
        }
    }
}

impl Billing {
    /// The units of `dimension` of the table (`index: None`) or of its GSI `index` (its own,
    /// else the table's); `None` on demand.
    pub fn units(&self, index: Option<&str>, dimension: Dimension) -> Option<u64> {
        self.capacity_of(index).map(|c| c.units(dimension))
    }

    /// The bounds auto scaling keeps `dimension` of the table or GSI `index` in, if it scales.
    pub fn scaling(&self, index: Option<&str>, dimension: Dimension) -> Option<Scaling> {
        self.capacity_of(index)?.auto_scaling?.of(dimension)
    }

    /// Whether the GSI `index` has capacity of its own (else it has the table's).
    pub fn has_own_capacity(&self, index: &str) -> bool {
        matches!(self, Billing::Provisioned { indexes, .. } if indexes.contains_key(index))
    }

    fn capacity_of(&self, index: Option<&str>) -> Option<Capacity> {
        match index {
            None => self.table_capacity(),
            Some(index) => self.index_capacity(index),
        }
    }

    /// Gives `dimension` of the table or of its GSI `index` `units` capacity units; a GSI
    /// left with the table's very capacity has no capacity of its own
    /// ([`Billing::set_index_capacity`]'s rule). False on demand, which has no units.
    pub fn set_units(&mut self, index: Option<&str>, dimension: Dimension, units: u64) -> bool {
        let Some(mut capacity) = self.capacity_of(index) else {
            return false;
        };
        *capacity.units_mut(dimension) = units;
        self.put_capacity(index, capacity);
        true
    }

    /// Gives the GSI `index` the table's capacity again.
    pub fn clear_index_capacity(&mut self, index: &str) {
        if let Billing::Provisioned { indexes, .. } = self {
            indexes.remove(index);
        }
    }

    /// Sets one bound of `dimension`'s auto scaling of the table or GSI `index`; a dimension
    /// that did not scale starts between its units and themselves. Refused, saying why, on
    /// demand or where AWS refuses it: a least capacity above the most, or a target outside
    /// [`TARGET_RANGE`].
    pub fn set_scaling_bound(
        &mut self,
        index: Option<&str>,
        dimension: Dimension,
        bound: Bound,
    ) -> Result<(), String> {
        let Some(units) = self.units(index, dimension) else {
            return Err("an on-demand table has no capacity to scale".to_string());
        };
        let mut scaling = self.scaling(index, dimension).unwrap_or(Scaling {
            min: units,
            max: units,
            target: None,
        });
        match bound {
            Bound::Min(min) => scaling.min = min,
            Bound::Max(max) => scaling.max = max,
            Bound::Target(target) => scaling.target = target,
        }
        if scaling.min > scaling.max {
            return Err(format!(
                "auto scaling's least {word} capacity ({}) is above its most ({}): AWS refuses it",
                scaling.min,
                scaling.max,
                word = dimension.word()
            ));
        }
        if let Some(target) = scaling.target
            && !TARGET_RANGE.contains(&target)
        {
            return Err(format!(
                "a target utilisation of {target}% is outside the {}% to {}% AWS takes",
                TARGET_RANGE.start(),
                TARGET_RANGE.end()
            ));
        }
        self.set_scaling(index, dimension, scaling);
        Ok(())
    }

    /// Stops auto scaling `dimension` of the table or GSI `index` (auto scaling altogether when
    /// the other dimension does not scale either).
    pub fn clear_scaling(&mut self, index: Option<&str>, dimension: Dimension) {
        let Some(mut capacity) = self.capacity_of(index) else {
            return;
        };
        let Some(mut scaling) = capacity.auto_scaling else {
            return;
        };
        match dimension {
            Dimension::Read => scaling.read = None,
            Dimension::Write => scaling.write = None,
        }
        capacity.auto_scaling =
            (scaling.read.is_some() || scaling.write.is_some()).then_some(scaling);
        self.put_capacity(index, capacity);
    }

    /// Puts `capacity` as the table's or as the GSI `index`'s own (none of its own when it is
    /// the table's).
    fn put_capacity(&mut self, index: Option<&str>, capacity: Capacity) {
        let own = self.table_capacity();
        let Billing::Provisioned {
            read,
            write,
            auto_scaling,
            indexes,
        } = self
        else {
            return;
        };
        match index {
            None => {
                *read = capacity.read;
                *write = capacity.write;
                *auto_scaling = capacity.auto_scaling;
            }
            Some(index) if capacity.is_the_tables(own) => {
                indexes.remove(index);
            }
            Some(index) => {
                indexes.insert(index.to_string(), capacity);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provisioned() -> Billing {
        Billing::provisioned(10, 4)
    }

    #[test]
    fn a_gsis_units_set_apart_from_the_tables_are_its_own_until_they_equal_the_tables_again() {
        let mut billing = provisioned();
        assert!(billing.set_units(Some("GSI1"), Dimension::Write, 9));
        assert!(billing.has_own_capacity("GSI1"));
        assert_eq!(billing.units(Some("GSI1"), Dimension::Write), Some(9));
        assert_eq!(billing.units(Some("GSI1"), Dimension::Read), Some(10));
        assert!(billing.set_units(Some("GSI1"), Dimension::Write, 4));
        assert!(!billing.has_own_capacity("GSI1"));
        assert!(billing.set_units(None, Dimension::Read, 50));
        assert_eq!(billing.units(Some("GSI1"), Dimension::Read), Some(50));
        assert!(!Billing::OnDemand.set_units(None, Dimension::Read, 1));
    }

    #[test]
    fn a_bound_starts_a_dimensions_auto_scaling_and_clearing_both_ends_it() {
        let mut billing = provisioned();
        billing
            .set_scaling_bound(None, Dimension::Read, Bound::Max(100))
            .expect("taken");
        assert_eq!(
            billing.scaling(None, Dimension::Read),
            Some(Scaling {
                min: 10,
                max: 100,
                target: None
            })
        );
        billing
            .set_scaling_bound(None, Dimension::Read, Bound::Target(Some(50.0)))
            .expect("taken");
        assert_eq!(
            billing
                .scaling(None, Dimension::Read)
                .and_then(|s| s.target),
            Some(50.0)
        );
        billing.clear_scaling(None, Dimension::Read);
        assert_eq!(billing, provisioned());
    }

    #[test]
    fn bounds_aws_refuses_are_refused_saying_why() {
        let mut billing = provisioned();
        assert_eq!(
            billing.set_scaling_bound(None, Dimension::Write, Bound::Min(5)),
            Err(
                "auto scaling's least write capacity (5) is above its most (4): AWS refuses it"
                    .to_string()
            )
        );
        assert_eq!(
            billing.set_scaling_bound(None, Dimension::Read, Bound::Target(Some(95.0))),
            Err("a target utilisation of 95% is outside the 20% to 90% AWS takes".to_string())
        );
        assert_eq!(billing, provisioned());
        assert_eq!(
            Billing::OnDemand.set_scaling_bound(None, Dimension::Read, Bound::Max(1)),
            Err("an on-demand table has no capacity to scale".to_string())
        );
    }
}
