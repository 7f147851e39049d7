//! `query_range`'s `data` (`{"resultType":"matrix","result":[{"metric":…,"values":…},…]}`),
//! read as it streams in: each series is handed over as soon as it is parsed and then dropped,
//! so a day of every port is never held as series (32 B a point) nor as text (20 B a point).

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::snapshots::Series;

/// What the answer held besides its series.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatrixSummary {
    /// `resultType`: `matrix` for a range query.
    pub result_type: String,
    pub series: usize,
    pub points: usize,
}

/// Reads `data` from `reader`, handing each series to `each` in the server's order.
pub fn read_matrix<R: std::io::Read>(
    reader: R,
    each: &mut dyn FnMut(Series),
) -> Result<MatrixSummary, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_reader(reader);
    let summary = MatrixSeed(each).deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(summary)
}

/// The `data` object, its series handed to a callback.
pub struct MatrixSeed<'f>(pub &'f mut dyn FnMut(Series));

impl<'de> DeserializeSeed<'de> for MatrixSeed<'_> {
    type Value = MatrixSummary;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<MatrixSummary, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for MatrixSeed<'_> {
    type Value = MatrixSummary;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a query_range answer's data")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MatrixSummary, A::Error> {
        let mut summary = MatrixSummary::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "resultType" => summary.result_type = map.next_value()?,
                "result" => {
                    let (series, points) = map.next_value_seed(ResultSeed(&mut *self.0))?;
                    (summary.series, summary.points) = (summary.series + series, summary.points + points);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(summary)
    }
}

/// The `result` array: series and points counted, each series handed over.
struct ResultSeed<'f>(&'f mut dyn FnMut(Series));

impl<'de> DeserializeSeed<'de> for ResultSeed<'_> {
    type Value = (usize, usize);
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(usize, usize), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ResultSeed<'_> {
    type Value = (usize, usize);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of series")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(usize, usize), A::Error> {
        let (mut series, mut points) = (0, 0);
        while let Some(one) = seq.next_element::<Series>()? {
            (series, points) = (series + 1, points + one.values.len());
            (self.0)(one);
        }
        Ok((series, points))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_series_is_handed_over_in_order_and_counted() {
        let data = r#"{"resultType":"matrix","result":[
            {"metric":{"__name__":"a"},"values":[[1,"1"],[2,"2"]]},
            {"metric":{"__name__":"b"},"values":[[1,"5"]]}],"stats":{"x":1}}"#;
        let mut names = Vec::new();
        let summary =
            read_matrix(data.as_bytes(), &mut |s| names.push(s.metric["__name__"].clone())).unwrap();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(summary, MatrixSummary { result_type: "matrix".into(), series: 2, points: 3 });
        assert!(read_matrix(&b"{\"result\":[{\"values\":[[1]]}]}"[..], &mut |_| {}).is_err());
    }
}
