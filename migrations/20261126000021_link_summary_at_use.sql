-- What an application's summary (names, e-mail, phone, addresses) was when a hand-off link was
-- opened: what the agent had entered. The customer's later changes differ from it, and the agent's
-- More Info shows those masked (nothing the agent did not enter is shown back to the agent
-- unmasked).
ALTER TABLE application_links ADD COLUMN summary_at_use jsonb;
