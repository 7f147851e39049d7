//! Which view class draws a view, with the class's own parameters: rerun's view class
//! identifier and view properties. The view model knows no class. `modules::registry` finds
//! the class by its id, and only the class reads its parameters ([`ModuleSpec::params`]), so
//! a new class is a new file and a registry line, with no enum to extend.
//!
//! In a session a module reads as before the classes were open: a bare id (`fat_tree`) for a
//! class without parameters, or a one-key map (`torus: {kept: [0, 1, 2]}`).

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A view's class id and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleSpec {
    class: String,
    /// `Null` for a class without parameters.
    params: Value,
}

impl ModuleSpec {
    /// A view of class `class` with no parameters (or the class's defaults).
    pub fn of(class: &str) -> ModuleSpec {
        ModuleSpec { class: class.to_string(), params: Value::Null }
    }

    /// A view of class `class` with these parameters (plain data the class reads back).
    pub fn with(class: &str, params: &impl Serialize) -> ModuleSpec {
        // Plain structs with string keys always serialise; anything else is a class's bug.
        let params = serde_json::to_value(params).expect("view parameters are plain data");
        ModuleSpec { class: class.to_string(), params }
    }

    /// The id of the class that draws the view: `fat_tree`, `torus`, `matrix` …
    pub fn class_id(&self) -> &str {
        &self.class
    }

    pub fn is(&self, class: &str) -> bool {
        self.class == class
    }

    /// The parameters as the class's type; none given: the type's defaults.
    pub fn params<T: DeserializeOwned + Default>(&self) -> Result<T, String> {
        if self.params.is_null() {
            return Ok(T::default());
        }
        T::deserialize(&self.params).map_err(|e| format!("the {} view's parameters: {e}", self.class))
    }

    /// The parameters, or the type's defaults where they do not read (a session is checked
    /// when it is read, so this only covers specs made in code).
    pub fn params_or_default<T: DeserializeOwned + Default>(&self) -> T {
        self.params().unwrap_or_default()
    }

    /// The same view under the class's canonical id (sessions may name a class by an alias).
    pub fn renamed(&self, class: &str) -> ModuleSpec {
        ModuleSpec { class: class.to_string(), params: self.params.clone() }
    }
}

impl Hash for ModuleSpec {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.class.hash(state);
        // serde_json's maps are ordered, so equal values print equally.
        self.params.to_string().hash(state);
    }
}

impl Serialize for ModuleSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.params.is_null() {
            return serializer.serialize_str(&self.class);
        }
        let mut map = BTreeMap::new();
        map.insert(&self.class, &self.params);
        map.serialize(serializer)
    }
}

/// A module as sessions write it.
#[derive(Deserialize)]
#[serde(untagged)]
enum Wire {
    Id(String),
    Tagged(BTreeMap<String, Value>),
}

impl<'de> Deserialize<'de> for ModuleSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Wire::deserialize(deserializer)? {
            Wire::Id(class) => Ok(ModuleSpec { class, params: Value::Null }),
            Wire::Tagged(map) if map.len() == 1 => {
                let (class, params) = map.into_iter().next().expect("one entry");
                Ok(ModuleSpec { class, params })
            }
            Wire::Tagged(map) => Err(serde::de::Error::custom(format!(
                "a view's module is one class id, or one id with its parameters; this one names {}",
                map.len()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Kept {
        kept: Vec<usize>,
    }

    #[test]
    fn a_class_without_parameters_reads_and_writes_as_its_bare_id() {
        let m: ModuleSpec = serde_saphyr::from_str("fat_tree").unwrap();
        assert_eq!(m, ModuleSpec::of("fat_tree"));
        assert_eq!(serde_saphyr::to_string(&m).unwrap().trim(), "fat_tree");
    }

    #[test]
    fn parameters_read_back_as_the_classs_own_type() {
        let m: ModuleSpec = serde_saphyr::from_str("torus:\n  kept: [0, 2, 1]\n").unwrap();
        assert_eq!(m.class_id(), "torus");
        assert_eq!(m.params::<Kept>().unwrap(), Kept { kept: vec![0, 2, 1] });
        let again: ModuleSpec = serde_saphyr::from_str(&serde_saphyr::to_string(&m).unwrap()).unwrap();
        assert_eq!(again, m);
        assert_eq!(again, ModuleSpec::with("torus", &Kept { kept: vec![0, 2, 1] }));
    }

    #[test]
    fn parameters_of_the_wrong_shape_are_an_error_naming_the_class() {
        let m: ModuleSpec = serde_saphyr::from_str("torus:\n  kept: seven\n").unwrap();
        let e = m.params::<Kept>().unwrap_err();
        assert!(e.starts_with("the torus view's parameters:"), "{e}");
        assert_eq!(ModuleSpec::of("torus").params::<Kept>().unwrap(), Kept::default());
    }

    #[test]
    fn a_map_of_two_classes_is_refused() {
        let e = serde_saphyr::from_str::<ModuleSpec>("torus: {kept: [0]}\nmatrix: {}\n").unwrap_err();
        assert!(e.to_string().contains("one class id"), "{e}");
    }
}
