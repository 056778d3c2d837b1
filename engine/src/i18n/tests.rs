//! Catalogs and their patterns, what `check` reports and the pseudo-language.

use super::*;
use crate::Source;

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
fn a_pattern_translates_a_message_and_the_title_it_names() {
    let mut problems = Vec::new();
    let l = Languages::load(&set(), &[], &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        l.text("es", "The ZIP Code field is required."),
        "El campo Código postal es obligatorio."
    );
    assert_eq!(
        l.text(
            "es",
            "The County is not one of the counties of ZIP code 48201."
        ),
        "El condado no es uno de los condados del código postal 48201."
    );
    // A sentence a rule fills into another is translated too.
    let mut nested = set();
    nested[3].text.push_str(
        "\"{zip} is not in Michigan. {contact}\": \"{zip} no está en Michigan. {contact}\"\n\"Please contact your agent, {name}.\": \"Comuníquese con su agente, {name}.\"\n",
    );
    let mut problems = Vec::new();
    let n = Languages::load(&nested, &[], &mut problems);
    assert_eq!(
        n.text(
            "es",
            "48201 is not in Michigan. Please contact your agent, Maria Alvarez."
        ),
        "48201 no está en Michigan. Comuníquese con su agente, Maria Alvarez."
    );
    let date = time::macros::date!(2025 - 01 - 01);
    assert_eq!(l.long_date("en", date), "January 1, 2025");
    // A name, a date or an English text no catalog has stays as it is.
    assert_eq!(l.text("es", "Priority Health"), "Priority Health");
    assert_eq!(l.text("en", "Male"), "Male");
    assert_eq!(l.codes(), vec!["en", "es"]);
    assert!(l.speaks("pseudo") && !l.speaks("fr"));
}

#[test]
fn check_names_each_missing_text_where_it_is_written_and_each_extra_key_where_it_is() {
    let problems = check(&set(), &[]);
    let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
    // Every built-in message but the one translated is missing, at the engine.
    assert!(
        shown.iter().any(|p| p.contains("engine/src/i18n.rs")
            && p.contains("no es translation of `The {title} is invalid.`")),
        "{shown:#?}"
    );
    assert!(
        shown
            .iter()
            .any(|p| p.starts_with("rules/locales/es.yaml:2")
                && p.contains("`Gone text.` is not a text")),
        "{shown:#?}"
    );
    // The translated texts are not reported; the comment's sentence is no text.
    assert!(
        !shown
            .iter()
            .any(|p| p.contains("`Gender`") || p.contains("Not a text"))
    );
}

#[test]
fn a_removed_key_is_reported_with_its_form_file_and_line() {
    let mut sources = set();
    sources[2].text = sources[2].text.replace("Gender: Sexo\n", "");
    let problems = check(&sources, &[]);
    let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        shown
            .iter()
            .any(|p| p.starts_with("forms/census.form.yaml:8") && p.contains("`Gender`")),
        "{shown:#?}"
    );
}

#[test]
fn a_translation_that_drops_a_placeholder_is_refused() {
    let sources = vec![src(
        "forms/locales/es.yaml",
        "\"Dependent {n}\": Dependiente\n",
    )];
    let mut problems = Vec::new();
    Languages::load(&sources, &[], &mut problems);
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].to_string().contains("placeholders"),
        "{problems:?}"
    );
}

#[test]
fn the_pseudo_language_marks_every_known_text_and_keeps_placeholders() {
    let mut problems = Vec::new();
    let l = Languages::load(&set(), &[], &mut problems);
    assert_eq!(l.text(PSEUDO, "Dependent {n}"), "[Dépéñdéñt {n}]");
    assert_eq!(l.text(PSEUDO, "Acme Health"), "Acme Health");
}
