-- Tenancy of deals (see 0001_tenancy.sql): forced row-level security with the company policy, and the grants.
SELECT app_enable_tenancy('deals');
