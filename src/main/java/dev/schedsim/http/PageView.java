package dev.schedsim.http;

import java.util.List;
import java.util.function.Function;
import org.springframework.data.domain.Page;

/** A page in the shape of Spring Data's {@code Page} JSON (a stable record rather than {@code PageImpl}). */
public record PageView<T>(List<T> content, int number, int size, long totalElements, int totalPages,
                   int numberOfElements, boolean first, boolean last, boolean empty) {

    public static <S, T> PageView<T> of(Page<S> page, Function<S, T> map) {
        return new PageView<>(page.getContent().stream().map(map).toList(), page.getNumber(), page.getSize(),
                page.getTotalElements(), page.getTotalPages(), page.getNumberOfElements(), page.isFirst(),
                page.isLast(), page.isEmpty());
    }
}
