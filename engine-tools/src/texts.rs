//! A language's catalogs as they should be (`skeleton`): what `enrollflow texts` prints or writes.

use std::collections::BTreeMap;

use enrollflow_engine::Source;
use enrollflow_engine::i18n::{HostTexts, Languages, catalog_of, texts};

/// A language's catalogs as they should be: for `forms/locales/<code>.yaml` (the forms' texts
/// and the engine's messages) and `rules/locales/<code>.yaml` (the tables', the flow's and the
/// scripts' texts), every text in order with the translation the catalogs have, or `""` where
/// they have none, and a comment naming where the text is written. Translations of no text are
/// left out. What `enrollflow texts --language <code>` prints or writes: a new language starts
/// from it.
pub fn skeleton(sources: &[Source], code: &str, host: &[HostTexts]) -> Vec<(String, String)> {
    let mut ignored = Vec::new();
    let languages = Languages::load(sources, host, &mut ignored);
    let catalog = languages.catalog(code);
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for t in texts(sources, host) {
        let path = catalog_of(&t.file, code);
        let folder = path.split('/').next().unwrap_or("forms").to_string();
        let out = files.entry(path).or_insert_with(|| {
            format!(
                "# yaml-language-server: $schema=../../schemas/catalog.schema.json\n\
                 # {code} texts of {folder}/: the English text as the files write it, then its \
                 translation\n# (`enrollflow texts --language {code}` lists them; \
                 `enrollflow check` reports what is missing).\n"
            )
        });
        let translation = catalog
            .and_then(|c| c.exact(&t.text))
            .map(str::to_string)
            .unwrap_or_default();
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        out.push_str(&format!(
            "# {}:{}\n{}: {}\n",
            t.file,
            t.line,
            quote(&t.text),
            quote(&translation)
        ));
    }
    files.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use enrollflow_engine::i18n::Languages;

    use super::*;

    fn src(path: &str, text: &str) -> Source {
        Source::new(path, text)
    }

    fn set() -> Vec<Source> {
        vec![
            src(
                "forms/census.form.yaml",
                "title: About You\nschema:\n  type: object\n  properties:\n    zip: { type: string, title: ZIP Code }\n    g:\n      type: string\n      title: Gender\n      oneOf: [{ const: M, title: Male }]\nui:\n  g: { \"ui:widget\": radio }\n  items: { \"ui:options\": { addLabel: Add a dependent, itemTitle: \"Dependent {n}\" } }\n",
            ),
            src(
                "rules/scripts/census.rhai",
                "fn check(input) {\n    // A comment: \"Not a text.\"\n    let e = `The County is not one of the counties of ZIP code ${input.zip}.`;\n    e\n}\n",
            ),
            src(
                "forms/locales/es.yaml",
                "About You: Acerca de usted\nZIP Code: Código postal\nGender: Sexo\nMale: Masculino\nAdd a dependent: Agregar un dependiente\n\"Dependent {n}\": \"Dependiente {n}\"\n\"The {title} field is required.\": \"El campo {title} es obligatorio.\"\n",
            ),
            src(
                "rules/locales/es.yaml",
                "\"The County is not one of the counties of ZIP code {input.zip}.\": \"El condado no es uno de los condados del código postal {input.zip}.\"\nGone text.: Texto que ya no existe.\n",
            ),
        ]
    }

    #[test]
    fn a_skeleton_keeps_the_translations_and_leaves_the_missing_texts_blank() {
        let files = skeleton(&set(), "es", &[]);
        let (forms, rules) = (&files[0], &files[1]);
        assert_eq!(forms.0, "forms/locales/es.yaml");
        assert!(forms.1.contains("\"Gender\": \"Sexo\""), "{}", forms.1);
        assert!(
            forms.1.contains("# forms/census.form.yaml:8\n"),
            "{}",
            forms.1
        );
        assert!(
            forms.1.contains("\"The {title} is invalid.\": \"\""),
            "{}",
            forms.1
        );
        assert_eq!(rules.0, "rules/locales/es.yaml");
        assert!(!rules.1.contains("Gone text."), "{}", rules.1);
        // What it writes loads, and what was translated stays translated.
        let mut sources = set();
        sources[2].text = forms.1.clone();
        sources[3].text = rules.1.clone();
        let mut problems = Vec::new();
        let l = Languages::load(&sources, &[], &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(l.text("es", "Gender"), "Sexo");
    }
}
