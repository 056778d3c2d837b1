//! The protected core's checks of every set are the tools crate's
//! (`enrollflow_engine_tools::protected`: the analysts' paths, the sensitive answers, the link
//! templates), re-exported here; the server's own account mail is rendered here, never from a
//! rule set.

use std::sync::OnceLock;

pub use enrollflow_engine_tools::protected::*;

/// The server's own mail (password resets, invitations): rendered from `server/mail/`, never from
/// a rule set.
pub fn account_mail() -> &'static minijinja::Environment<'static> {
    static ENV: OnceLock<minijinja::Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = minijinja::Environment::new();
        env.add_global("product_name", crate::platform::config::PRODUCT_NAME);
        env.set_fuel(Some(TEMPLATE_FUEL));
        for (name, text) in [
            (
                "email/reset_password.txt",
                include_str!("../../mail/reset_password.txt"),
            ),
            (
                "email/invitation.txt",
                include_str!("../../mail/invitation.txt"),
            ),
            (
                "email/account_notice.txt",
                include_str!("../../mail/account_notice.txt"),
            ),
        ] {
            // Shipped with the server and checked by its tests: a broken one fails when sent.
            if let Err(e) = env.add_template(name, text) {
                tracing::error!(error = %e, name, "an account mail template does not parse");
            }
        }
        env
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_policy_names_every_ssn_of_the_forms() {
        let p = policy().expect("the policy parses");
        for path in ["sub_ssn", "spouse.ssn", "dependents.*.ssn"] {
            assert!(p.sensitive.iter().any(|s| s == path), "{path}");
        }
    }

    #[test]
    fn analysts_own_rules_forms_and_the_consumer_templates_only() {
        for ok in [
            "rules/flows/application.flow.yaml",
            "rules/scripts/census.rhai",
            "forms/census.form.yaml",
            "templates/legal/terms.html",
            "templates/es/email/resume.txt",
        ] {
            assert_eq!(not_analysts(ok), None, "{ok}");
        }
        for (refused, says) in [
            ("templates/email/reset_password.txt", "account mail"),
            ("templates/es/email/invitation.txt", "account mail"),
            ("templates/notes.txt", "not a template"),
            ("server/policy/protected.yaml", "only files under"),
            ("rules/../server/policy/protected.yaml", ".."),
            ("rules/notes.txt", "only files under"),
        ] {
            let why = not_analysts(refused).unwrap_or_default();
            assert!(why.contains(says), "{refused}: {why}");
        }
    }

    #[test]
    fn a_link_stands_alone_on_its_line() {
        let ok = format!("Open it:\n\n{LINK_PLACE}\n\nThanks");
        assert_eq!(
            place_link(&ok, "https://acme.example.com/resume/token/abc").expect("placed"),
            "Open it:\n\nhttps://acme.example.com/resume/token/abc\n\nThanks"
        );
        let wrapped = format!("Open https://elsewhere.example/?to={LINK_PLACE}\n");
        assert!(place_link(&wrapped, "x").is_err());
        let twice = format!("{LINK_PLACE}\n{LINK_PLACE}\n");
        assert!(place_link(&twice, "x").is_err());
        assert!(place_link("no link", "x").is_err());
    }

    #[test]
    fn account_mail_renders_from_the_servers_own_templates() {
        let env = account_mail();
        for name in [
            "email/reset_password.txt",
            "email/invitation.txt",
            "email/account_notice.txt",
        ] {
            let t = env.get_template(name).expect(name);
            let out = t
                .render(minijinja::context! {
                    first_name => "Pat", link => "L", valid_for => "1 hour",
                    headline => "H", text => "T", when => "W",
                })
                .expect("renders");
            assert!(out.starts_with("Subject:"), "{out}");
        }
    }
}
