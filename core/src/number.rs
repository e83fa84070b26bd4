//! DynamoDB numbers as exact decimals: parsing, canonical text and numeric order.
//!
//! A number is never turned into a float: `0.1` and `0.10000000000000000001` are different
//! numbers to DynamoDB, and so they are here. The value is kept as its significant digits and a
//! decimal exponent, which makes comparison and the size arithmetic exact.

use std::cmp::Ordering;
use std::fmt;

/// The most significant digits DynamoDB keeps in a number.
pub const MAX_SIGNIFICANT_DIGITS: usize = 38;

/// An exact decimal: `0.d1 d2 d3 ... x 10^exponent`, `digits` without leading or trailing
/// zeros; zero has no digits and is never negative.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decimal {
    negative: bool,
    /// Each 0..=9; empty for zero; first and last are non-zero.
    digits: Vec<u8>,
    exponent: i64,
}

/// Why a text is not a DynamoDB number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("`{0}` is not a number")]
    Syntax(String),
    #[error("`{0}` has more than {MAX_SIGNIFICANT_DIGITS} significant digits")]
    TooPrecise(String),
    #[error("`{0}` is outside DynamoDB's number range (1E-130 to 9.99E+125 in magnitude)")]
    OutOfRange(String),
}

impl Decimal {
    /// Parses `-12.50`, `3e5`, `+0.001`, `.5`. Leading and trailing zeros are dropped.
    pub fn parse(text: &str) -> Result<Decimal, NumberError> {
        let bad = || NumberError::Syntax(text.to_string());
        let trimmed = text.trim();
        let (negative, rest) = match trimmed.as_bytes().first() {
            Some(b'-') => (true, &trimmed[1..]),
            Some(b'+') => (false, &trimmed[1..]),
            _ => (false, trimmed),
        };
        let (mantissa, exp_text) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let extra_exponent: i64 = match exp_text {
            Some(e) => e.parse::<i32>().map(i64::from).map_err(|_| bad())?,
            None => 0,
        };
        let (int_part, frac_part) = match mantissa.split_once('.') {
            Some((i, f)) => (i, f),
            None => (mantissa, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(bad());
        }
        if !int_part
            .bytes()
            .chain(frac_part.bytes())
            .all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let all: Vec<u8> = int_part
            .bytes()
            .chain(frac_part.bytes())
            .map(|b| b - b'0')
            .collect();
        let Some(first) = all.iter().position(|&d| d != 0) else {
            return Ok(Decimal::zero());
        };
        let last = all.iter().rposition(|&d| d != 0).unwrap_or(first);
        let digits = all[first..=last].to_vec();
        if digits.len() > MAX_SIGNIFICANT_DIGITS {
            return Err(NumberError::TooPrecise(text.to_string()));
        }
        // The point sits after `int_part.len()` digits of `all`; the value is
        // 0.(all[first..]) x 10^(int_len - first).
        let exponent = int_part.len() as i64 - first as i64 + extra_exponent;
        if !(-129..=126).contains(&exponent) {
            return Err(NumberError::OutOfRange(text.to_string()));
        }
        Ok(Decimal {
            negative,
            digits,
            exponent,
        })
    }

    pub fn zero() -> Decimal {
        Decimal {
            negative: false,
            digits: Vec::new(),
            exponent: 0,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Significant digits, leading and trailing zeros trimmed (0 for zero).
    pub fn significant_digits(&self) -> usize {
        self.digits.len()
    }

    pub fn is_negative(&self) -> bool {
        self.negative
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        let sign = |d: &Decimal| -> i8 {
            if d.is_zero() {
                0
            } else if d.negative {
                -1
            } else {
                1
            }
        };
        let (a, b) = (sign(self), sign(other));
        if a != b || a == 0 {
            return a.cmp(&b);
        }
        // Same sign, both non-zero: compare magnitudes, then flip for negatives.
        let magnitude = self
            .exponent
            .cmp(&other.exponent)
            .then_with(|| self.digits.cmp(&other.digits));
        if a < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Decimal {
    /// Plain decimal notation without an exponent, as DynamoDB returns numbers: `-0.05`, `1200`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let n = self.digits.len() as i64;
        let digit = |d: &u8| char::from(b'0' + d);
        if self.exponent <= 0 {
            f.write_str("0.")?;
            for _ in 0..(-self.exponent) {
                f.write_str("0")?;
            }
            for d in &self.digits {
                write!(f, "{}", digit(d))?;
            }
        } else if self.exponent >= n {
            for d in &self.digits {
                write!(f, "{}", digit(d))?;
            }
            for _ in 0..(self.exponent - n) {
                f.write_str("0")?;
            }
        } else {
            let (int, frac) = self.digits.split_at(self.exponent as usize);
            for d in int {
                write!(f, "{}", digit(d))?;
            }
            f.write_str(".")?;
            for d in frac {
                write!(f, "{}", digit(d))?;
            }
        }
        Ok(())
    }
}

/// The significant digits of a number's text without building the number (for item sizes,
/// which count them for every numeric attribute); `None` if the text is not a number.
pub fn significant_digits(text: &str) -> Option<usize> {
    let trimmed = text.trim();
    let rest = trimmed.strip_prefix(['-', '+']).unwrap_or(trimmed);
    let mantissa = match rest.find(['e', 'E']) {
        Some(at) => {
            rest[at + 1..].parse::<i32>().ok()?;
            &rest[..at]
        }
        None => rest,
    };
    let mut points = 0;
    let mut first = None;
    let mut last = 0;
    let mut position = 0;
    for b in mantissa.bytes() {
        match b {
            b'.' => points += 1,
            b'0'..=b'9' => {
                if b != b'0' {
                    first.get_or_insert(position);
                    last = position;
                }
                position += 1;
            }
            _ => return None,
        }
    }
    if points > 1 || position == 0 {
        return None;
    }
    Some(first.map_or(0, |f| last - f + 1))
}
