import { Trans } from '@lingui/react';
import { LegalLinks } from '@/features/legal/components/legal-links';
import type { Site } from '@/types/api';

export function SiteFooter({ site }: { site: Site | null }) {
  return (
    <footer className="ef-footer">
      <div className="ds-l-container">
        {site && (
          <p className="ds-u-margin-top--0">
            <Trans
              id="{product} is provided by {toolOwner}. General agent: {generalAgent}."
              values={{ product: site.product_name, toolOwner: site.tool_owner, generalAgent: site.general_agent.replace(/\.$/, '') }}
            />
          </p>
        )}
        <LegalLinks />
        {site && (
          <p className="ds-text-body--sm ds-u-margin-bottom--0">
            © {new Date().getFullYear()} {site.tool_owner}
          </p>
        )}
      </div>
    </footer>
  );
}
