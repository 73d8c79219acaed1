import type { LoaderFunctionArgs } from "@remix-run/node";
import { paths } from "#common/paths";
import { mailLinkBase } from "#server/mail";
import { digitalPage } from "#app/components/digital/access.server";
import { getFixedT } from "#app/i18n.server";

// /{lang}/researcher/digital-editing/add-in/manifest.xml (spec 3 §2 "Word add-in download"; ADR 074): a real Office
// Add-in manifest (TaskPaneApp, Word host) whose SourceLocation is this portal's task-pane page on its own
// configured origin (the same origin as the site: mailLinkBase, configuration only, never the request's Host), with
// icons we serve. Signed-in researchers with digital editing only; downloaded as an attachment.
export const ADD_IN_ID = "7d3f1a52-4c1e-4a8e-9b57-3a1f0d2c6e24";
export const ADD_IN_VERSION = "1.0.0.0";

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const origin = await mailLinkBase(context.app, scope.localization);
  const t = await getFixedT(request, "digital");
  const pane = `${origin}${paths.digitalEditingAddIn(scope.lang)}?host=word`;
  const icon = (size: 16 | 32 | 64 | 80) => `${origin}${paths.digitalEditingAddInIcon(size)}`;
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<OfficeApp xmlns="http://schemas.microsoft.com/office/appforoffice/1.1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="TaskPaneApp">
  <Id>${ADD_IN_ID}</Id>
  <Version>${ADD_IN_VERSION}</Version>
  <ProviderName>${xml(t("addIn.provider"))}</ProviderName>
  <DefaultLocale>en-US</DefaultLocale>
  <DisplayName DefaultValue="${xml(t("addIn.name"))}"/>
  <Description DefaultValue="${xml(t("addIn.description"))}"/>
  <IconUrl DefaultValue="${xml(icon(32))}"/>
  <HighResolutionIconUrl DefaultValue="${xml(icon(64))}"/>
  <SupportUrl DefaultValue="${xml(`${origin}${paths.digitalEditing(scope.lang)}`)}"/>
  <AppDomains>
    <AppDomain>${xml(origin)}</AppDomain>
  </AppDomains>
  <Hosts>
    <Host Name="Document"/>
  </Hosts>
  <DefaultSettings>
    <SourceLocation DefaultValue="${xml(pane)}"/>
  </DefaultSettings>
  <Permissions>ReadWriteDocument</Permissions>
</OfficeApp>
`;
  return new Response(body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": 'attachment; filename="digital-editing-add-in.xml"',
      "Cache-Control": "private, no-store",
    },
  });
}
