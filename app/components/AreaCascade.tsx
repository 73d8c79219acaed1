import { useEffect, useState } from "react";
import { useTranslation } from "#app/lib/translate";
import { AreaSearch } from "./AreaSearch";

export interface AreaTreeNode {
  id: number;
  name: string;
  children: AreaTreeNode[];
}

/** The field and discipline of area `id` in `tree` (a discipline without specialties is its own leaf). */
export function areaPath(tree: AreaTreeNode[], id: number | null): { grand: number | null; parent: number | null } {
  if (id === null) return { grand: null, parent: null };
  for (const g of tree) {
    if (g.id === id) return { grand: g.id, parent: null };
    for (const p of g.children) {
      if (p.id === id || p.children.some((l) => l.id === id)) return { grand: g.id, parent: p.id };
    }
  }
  return { grand: null, parent: null };
}

const num = (v: unknown) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : typeof v === "number" ? v : null);

/**
 * Spec 1 §6: the area of study as three cascading selects (field, discipline, specialty) beside the search. With
 * JavaScript each choice fills the next select in place; without it "Choose" posts the form and the page comes
 * back with the next level (the details action keeps everything else as typed; ADR 065).
 */
export function AreaCascade({
  tree,
  values,
  error,
  invalid,
}: {
  tree: AreaTreeNode[];
  values: { areaOfStudyId: unknown; areaGrandparentId?: unknown; areaParentId?: unknown };
  error: React.ReactNode;
  invalid: Record<string, unknown>;
}) {
  const { t } = useTranslation("order");
  const leafId = num(values.areaOfStudyId);
  const known = areaPath(tree, leafId);
  const [grand, setGrand] = useState<number | null>(num(values.areaGrandparentId) ?? known.grand);
  const [parent, setParent] = useState<number | null>(num(values.areaParentId) ?? known.parent);
  const [leaf, setLeaf] = useState<number | null>(leafId);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const grandNode = tree.find((g) => g.id === grand) ?? null;
  const parentNode = grandNode?.children.find((p) => p.id === parent) ?? null;
  const leaves = parentNode ? (parentNode.children.length ? parentNode.children : [parentNode]) : [];
  return (
    <>
      <AreaSearch
        selectId="areaOfStudyId"
        onPick={(a) => {
          setGrand(a.grandparentId);
          setParent(a.parentId);
          setLeaf(a.id);
        }}
      />
      <fieldset className={`area-cascade${error ? " field-invalid" : ""}`} id="areaOfStudy">
        <legend>{t("details.areaOfStudy")}</legend>
        <div className="field-grid">
          <div className="field">
            <label htmlFor="areaGrandparentId">{t("details.areaField")}</label>
            <select
              id="areaGrandparentId"
              name="areaGrandparentId"
              value={grand ?? ""}
              onChange={(e) => {
                setGrand(num(e.target.value));
                setParent(null);
                setLeaf(null);
              }}
            >
              <option value="">{t("details.chooseField")}</option>
              {tree.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="areaParentId">{t("details.areaDiscipline")}</label>
            <select
              id="areaParentId"
              name="areaParentId"
              value={parentNode ? parentNode.id : ""}
              disabled={!grandNode}
              onChange={(e) => {
                setParent(num(e.target.value));
                setLeaf(null);
              }}
            >
              <option value="">{t("details.chooseDiscipline")}</option>
              {(grandNode?.children ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="areaOfStudyId">{t("details.areaSpecialty")}</label>
            <select
              id="areaOfStudyId"
              name="areaOfStudyId"
              value={leaf !== null && leaves.some((l) => l.id === leaf) ? leaf : ""}
              disabled={!parentNode}
              onChange={(e) => setLeaf(num(e.target.value))}
              {...invalid}
            >
              <option value="">{t("details.chooseArea")}</option>
              {leaves.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        {hydrated ? null : (
          <p className="area-cascade-choose">
            <button type="submit" name="intent" value="area" className="button button-small" formNoValidate>
              {t("details.chooseAreaLevel")}
            </button>
          </p>
        )}
        {error}
      </fieldset>
    </>
  );
}
