// What makes a document PDF a Factur-X / ZUGFeRD invoice (EN 16931 profile): PDF/A-3b, every font embedded, the
// Cross Industry Invoice attached as `factur-x.xml` (AFRelationship Alternative: the XML is the same invoice as the
// pages) and the Factur-X XMP extension schema that names it. pdfkit 0.20.2 does each of these itself (`subset`
// writes the PDF/A identification and the sRGB output intent, `file()` the embedded file with its relationship and
// the catalog's AF array, `appendXML()` the XMP), so no second PDF library is needed. PDF/A wants every font
// embedded, which every document PDF does (fonts.ts).
type Doc = PDFKit.PDFDocument;

/** The PDFDocument options of a PDF/A-3b (its fonts are embedded as in every document PDF: fonts.ts). */
export const PDF_A_3B_OPTIONS = { subset: 'PDF/A-3b', pdfVersion: '1.7' } as const;

/**
 * pdfkit writes the document information into the XMP metadata without escaping it; PDF/A wants both to agree,
 * so texts with XML's special characters are left out of both.
 */
export function xmpSafeInfo(info: { Title: string; Author: string; Subject?: string; CreationDate: Date }) {
  const keep = (key: 'Title' | 'Author' | 'Subject') => {
    const text = info[key];
    return text !== undefined && !/[<>&]/.test(text) ? { [key]: text } : {};
  };
  return { ...keep('Title'), ...keep('Author'), ...keep('Subject'), CreationDate: info.CreationDate };
}

const FX = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const property = (name: string, description: string) => `
              <rdf:li rdf:parseType="Resource">
                <pdfaProperty:name>${name}</pdfaProperty:name>
                <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                <pdfaProperty:category>external</pdfaProperty:category>
                <pdfaProperty:description>${description}</pdfaProperty:description>
              </rdf:li>`;

/** The Factur-X 1.0 XMP: its properties and the PDF/A extension schema that declares them. */
const FACTURX_XMP = `
        <rdf:Description rdf:about="" xmlns:fx="${FX}">
          <fx:DocumentType>INVOICE</fx:DocumentType>
          <fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>
          <fx:Version>1.0</fx:Version>
          <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
            xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
          <pdfaExtension:schemas>
            <rdf:Bag>
              <rdf:li rdf:parseType="Resource">
                <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                <pdfaSchema:namespaceURI>${FX}</pdfaSchema:namespaceURI>
                <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                <pdfaSchema:property>
                  <rdf:Seq>${property('DocumentFileName', 'name of the embedded XML invoice file')}${property(
                    'DocumentType',
                    'INVOICE',
                  )}${property('Version', 'The actual version of the Factur-X XML schema')}${property(
                    'ConformanceLevel',
                    'The conformance level of the embedded Factur-X data',
                  )}
                  </rdf:Seq>
                </pdfaSchema:property>
              </rdf:li>
            </rdf:Bag>
          </pdfaExtension:schemas>
        </rdf:Description>`;

/** Embeds the CII as `factur-x.xml` and declares it in the XMP; call before `doc.end()`. */
export function attachFacturX(doc: Doc, xml: string, date: Date) {
  const options = {
    name: 'factur-x.xml',
    type: 'text/xml',
    description: 'Factur-X invoice (EN 16931)',
    // @types/pdfkit does not list the AFRelationship option pdfkit 0.20 takes.
    relationship: 'Alternative',
    creationDate: date,
    modifiedDate: date,
  };
  doc.file(Buffer.from(xml, 'utf8'), options);
  doc.appendXML(FACTURX_XMP);
}
