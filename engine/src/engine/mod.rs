//! The `Engine`'s methods, a file for each concern: what the rule set holds (here), evaluating
//! its rules (`evaluate`), moving between steps (`navigate`), a step's view (`step_view`) and the
//! plan and hand-built pages (`pages`).

mod evaluate;
mod navigate;
mod pages;
mod step_view;

use serde_json::Value;

use crate::{Engine, StepInfo, calendar, catalog, i18n};

pub(crate) use evaluate::truthy;

impl Engine {
    /// A digest of every source of the rule set (stored with applications).
    /// The step whose accepted submission purchases the application (the flow's `submitted_step`).
    pub fn submitted_step(&self) -> &str {
        &self.submitted_step
    }

    pub fn languages(&self) -> &i18n::Languages {
        &self.languages
    }

    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// The step whose answers show an uploaded qualifying-event document (the flow's
    /// `upload_step`); none when the flow takes no uploads.
    pub fn upload_step(&self) -> Option<&str> {
        self.upload_step.as_deref()
    }

    /// The number of the first step that offers "Save and finish later" (`save_for_later_from`).
    pub fn save_for_later_from(&self) -> Option<u8> {
        self.save_for_later_from
    }

    pub fn steps(&self) -> impl Iterator<Item = &StepInfo> {
        self.steps.iter().map(|s| &s.info)
    }

    pub fn step_info(&self, id: &str) -> Option<&StepInfo> {
        self.step(id).ok().map(|s| &s.info)
    }

    pub fn form_names(&self) -> impl Iterator<Item = &str> {
        self.forms.keys().map(String::as_str)
    }

    /// The full (unresolved) JSON Schema of a form step, if the step has a form.
    pub fn form_schema(&self, id: &str) -> Option<&Value> {
        let step = self.step(id).ok()?;
        step.form
            .as_ref()
            .and_then(|f| self.forms.get(f))
            .map(|f| &*f.schema)
    }

    /// The UI schema of a form step (`ui:order`, widgets), if the step has a form.
    pub fn form_ui(&self, id: &str) -> Option<&Value> {
        let step = self.step(id).ok()?;
        step.form
            .as_ref()
            .and_then(|f| self.forms.get(f))
            .map(|f| &*f.ui)
    }

    /// `rules/calendar.yaml`, typed (empty when the file is absent).
    pub fn calendar(&self) -> &calendar::Calendar {
        &self.calendar
    }

    /// The expected use per service of the yearly estimates.
    pub fn utilization(&self) -> &crate::yearly_cost::Utilization {
        &self.utilization
    }

    /// The plan catalog (empty when `rules/catalog/` is absent).
    pub fn catalog(&self) -> &catalog::Catalog {
        &self.catalog
    }

    /// The data tables (`rules/*.yaml`) as JSON.
    pub fn tables(&self) -> &Value {
        &self.tables_json
    }
}
