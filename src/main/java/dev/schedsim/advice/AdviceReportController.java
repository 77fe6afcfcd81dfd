package dev.schedsim.advice;

import dev.schedsim.http.NotFoundException;
import dev.schedsim.http.StateConflictException;
import dev.schedsim.reports.ReportController;
import dev.schedsim.security.Clients;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/advice/{id}/report}: a finished advice as HTML (default, with plots) or Markdown. */
@RestController
@Tag(name = "advice")
class AdviceReportController {
    private final Advices advices;
    private final Clients clients;

    AdviceReportController(Advices advices, Clients clients) {
        this.advices = advices;
        this.clients = clients;
    }

    @GetMapping("/api/v1/advice/{id}/report")
    @Operation(operationId = "getAdviceReport", summary = "The advice for people: the answer, the settings around "
            + "it, each figure of the objective plotted against the quota, every candidate",
            description = "Content negotiation as for a simulation's report: text/html (default) or text/markdown.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The report", content = {
                    @Content(mediaType = "text/html", schema = @Schema(types = "string")),
                    @Content(mediaType = "text/markdown", schema = @Schema(types = "string"))}),
                @ApiResponse(responseCode = "404", description = "Unknown advice"),
                @ApiResponse(responseCode = "406", description = "Neither text/html nor text/markdown acceptable"),
                @ApiResponse(responseCode = "409", description = "Not SUCCEEDED (yet)")})
    ResponseEntity<String> report(@Parameter(description = "The advice id") @PathVariable String id,
                                  @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept)
            throws HttpMediaTypeNotAcceptableException {
        Advice a = advices.findById(id).filter(x -> clients.sees(x.getOwner()))
                .orElseThrow(() -> new NotFoundException("no advice " + id));
        boolean markdown = ReportController.markdown(accept);
        if (a.getAnswerJson() == null) {
            throw new StateConflictException("advice " + id + " is " + a.getStatus() + " and has no answer to report");
        }
        AdviceReportRenderer r = new AdviceReportRenderer(a.getId(), a.getRequestJson(), a.getAnswerJson());
        return ResponseEntity.ok().contentType(markdown ? ReportController.MARKDOWN : ReportController.HTML)
                .header(HttpHeaders.VARY, "Accept").body(markdown ? r.markdown() : r.html());
    }
}
